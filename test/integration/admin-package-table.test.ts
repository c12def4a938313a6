import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PACKAGE_SORTS, type Package } from '../../shared/api/contracts/packages';
import { PACKAGE_LIST } from '../../shared/domain/list-columns';
import { filterRows, sortRows } from '../../shared/domain/list-view';
import { api, jsonText } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { chosenApprovers } from '../support/package-flow';

// decision 260: the admin package table reads one page of the searched, sorted list (its State column too)
let u: Awaited<ReturnType<typeof seededUsers>>;
const tag = `apt${randomUUID().slice(0, 8)}`;
const made: Package[] = [];
beforeAll(async () => {
  u = await seededUsers();
  // names whose case-insensitive order differs from their creation order; signed and unsigned, both stages
  const kinds = [
    ['b', 'dev', 'DEV_SIGNED'],
    ['A', 'release', 'RELEASE_UNSIGNED'],
    ['c', 'dev', 'DEV_UNSIGNED'],
    ['D', 'release', 'RELEASE_SIGNED'],
  ] as const;
  for (const [suffix, stage, type] of kinds) {
    const resource = await uploadPatch(u.designDev.token, stage);
    made.push(await createPackage(u.designDev.token, resource.id, type, `${tag}-${suffix}`));
  }
}, 120_000);

type Body = { packages: string; total?: number; nextCursor?: string; errorMessage?: string };

async function read(path: string) {
  const r = await api<Body>(path, { token: u.admin.token });
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return { rows: jsonText<Package[]>(r.body.packages), total: r.body.total, nextCursor: r.body.nextCursor };
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);
const suffixes = (rows: readonly Package[]) => rows.map((p) => p.name.slice(tag.length + 1));
const byColumn = (rows: Package[], by: string, order: 'asc' | 'desc') =>
  sortRows(rows, { columnId: by, direction: order === 'asc' ? 'ascending' : 'descending' }, (row, col) =>
    PACKAGE_LIST.sorts[col as keyof typeof PACKAGE_LIST.sorts]?.(row),
  );

describe('admin package table: one page at a time on the server', () => {
  it('cuts each page from the whole list by the shared rules: every column both ways, a search, the total', async () => {
    const whole = (await read('/admin/packages')).rows;
    expect(ids(whole)).toEqual(expect.arrayContaining(ids(made)));
    // the note every fixture package carries matches packages of earlier test files too; their State may
    // still move (a generation finishing), so State is checked over the tagged ones and below
    for (const search of [tag.toUpperCase(), 'pump OCCLUSION']) {
      const found = filterRows(whole, search, PACKAGE_LIST.search);
      expect(found.length).toBeGreaterThanOrEqual(4);
      for (const by of ADMIN_PACKAGE_SORTS.filter((s) => s !== 'status' || search === tag.toUpperCase()))
        for (const order of ['asc', 'desc'] as const) {
          const expected = byColumn(found, by, order);
          const q = `offset=1&limit=3&search=${encodeURIComponent(search)}&sort=${by}&order=${order}`;
          const page = await read(`/admin/packages?${q}`);
          expect(page.total, q).toBe(expected.length);
          expect(page.nextCursor, q).toBeUndefined();
          // the sort value of each row: rows whose values tie may come in the list's order only
          const value = (p: Package) => PACKAGE_LIST.sorts[by](p);
          expect(page.rows.map(value), q).toEqual(expected.slice(1, 4).map(value));
          if (search === tag.toUpperCase()) expect(ids(page.rows), q).toEqual(ids(expected.slice(1, 4)));
        }
    }
    // no sort: the list's own order, newest first; a page past the end is empty, with the total
    const first = await read('/admin/packages?offset=0&limit=5');
    expect(first.total).toBe(whole.length);
    expect(ids(first.rows)).toEqual(ids(whole.slice(0, 5)));
    const past = await read(`/admin/packages?offset=100000&limit=5&search=${tag}`);
    expect(past).toEqual({ rows: [], total: 4, nextCursor: undefined });
  });

  it('sorts the tagged packages by name case-insensitively and pages them', async () => {
    const p1 = await read(`/admin/packages?offset=0&limit=3&search=${tag}&sort=name&order=asc`);
    expect(p1.total).toBe(4);
    expect(suffixes(p1.rows)).toEqual(['A', 'b', 'c']);
    const p2 = await read(`/admin/packages?offset=3&limit=3&search=${tag}&sort=name&order=asc`);
    expect(suffixes(p2.rows)).toEqual(['D']);
    // Signed? sorts as it shows: Yes before No when descending
    const signed = await read(`/admin/packages?offset=0&limit=5&search=${tag}&sort=signed&order=desc`);
    expect(suffixes(signed.rows).slice(0, 2).sort()).toEqual(['D', 'b']);
    // a row of a page is the whole list's entry, with its state
    const whole = (await read('/admin/packages')).rows;
    expect(p1.rows[0]).toEqual(whole.find((p) => p.id === p1.rows[0]?.id));
  });

  it("moves a package on the next read when its state changes (the index's top-up reads it)", async () => {
    const state = async () =>
      suffixes((await read(`/admin/packages?offset=0&limit=5&search=${tag}&sort=status&order=asc`)).rows);
    // all drafts: equal State, so the list's order (newest first) stays
    expect(await state()).toEqual(['D', 'c', 'A', 'b']);
    // c goes to its approvers: 'Awaiting approval' sorts before 'Draft'
    const c = made[2] as Package;
    const att = await api(`/packages/${c.id}/dcc/${await createDcc(u.designDev.token)}`, {
      method: 'POST',
      token: u.designDev.token,
    });
    expect(att.status).toBe(200);
    const notified = await api(`/packages/${c.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, c.type) },
    });
    expect(notified.status).toBe(200);
    expect(await state()).toEqual(['c', 'D', 'A', 'b']);
    const pending = await read(`/admin/packages?offset=0&limit=1&search=${tag}&sort=status&order=asc`);
    expect(pending.rows[0]).toMatchObject({ id: c.id, status: 'PENDING_APPROVAL' });
    // a rejection (a conditional update, not a whole-item save): 'Rejected' sorts after 'Draft'
    const rejected = await api(`/packages/${c.id}/reject`, {
      method: 'POST',
      token: u.lead.token,
      body: { 'rejection-reason': 'Wrong threshold' },
    });
    expect(rejected.status).toBe(200);
    expect(await state()).toEqual(['D', 'A', 'b', 'c']);
    const desc = await read(`/admin/packages?offset=0&limit=1&search=${tag}&sort=status&order=desc`);
    expect(desc.rows[0]).toMatchObject({ id: c.id, status: 'REJECTED' });
  });

  it('answers as before without view parameters: the whole list, or cursor pages', async () => {
    const whole = await api<Body>('/admin/packages', { token: u.admin.token });
    expect(whole.status).toBe(200);
    expect(Object.keys(whole.body)).toEqual(['packages']);
    const page = await read('/admin/packages?limit=2');
    expect(page.total).toBeUndefined();
    expect(page.rows).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('refuses bad view parameters with a clear message', async () => {
    const sorts = 'name, resourceName, resourceType, resourceStage, signed, note, status';
    const cases: [string, string][] = [
      ['offset=-1', 'offset must be a whole number from 0'],
      ['offset=0&sort=initiator', `sort must be one of ${sorts}`],
      ['offset=0&sort=status&order=up', "order must be 'asc' or 'desc'"],
      ['offset=0&order=asc', 'order needs sort'],
      ['offset=0&limit=0', 'limit must be a whole number from 1 to 1000'],
      ['offset=0&limit=1001', 'limit must be a whole number from 1 to 1000'],
      [`offset=0&search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
      ['sort=status&cursor=abc', 'cursor cannot be combined with offset, search or sort'],
      ['drafts=mine', 'drafts is only for the dev and release lists'],
    ];
    for (const [q, message] of cases) {
      const r = await api<Body>(`/admin/packages?${q}`, { token: u.admin.token });
      expect(r.status, q).toBe(400);
      expect(r.body.errorMessage, q).toBe(message);
    }
    // the stage lists keep their own sorts: State is the admin table's column
    const stage = await api<Body>('/dev/packages?offset=0&sort=status', { token: u.lead.token });
    expect(stage.status).toBe(400);
  });

  it('lets only admins read it, paged or not', async () => {
    for (const token of [u.lead.token, u.designDev.token, u.release.token])
      for (const path of ['/admin/packages?offset=0&limit=5&sort=status', '/admin/packages']) {
        const r = await api<Body>(path, { token });
        expect(r.status, path).toBe(403);
        expect(r.body.errorMessage, path).toEqual(expect.any(String));
        expect(r.body.packages, path).toBeUndefined();
      }
    const anonymous = await api<Body>('/admin/packages?offset=0&limit=5');
    expect(anonymous.status).toBe(401);
  });
});
