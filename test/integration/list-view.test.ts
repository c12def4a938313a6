import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText } from '../support/api';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';

// decision 210: one page of the searched, sorted list with its total, from the server
let u: Awaited<ReturnType<typeof seededUsers>>;
const tag = `view${randomUUID().slice(0, 8)}`;
const made: Package[] = [];
beforeAll(async () => {
  u = await seededUsers();
  // names whose case-insensitive order differs from their creation order and from a case-sensitive one
  for (const suffix of ['b', 'A', 'c']) {
    const resource = await uploadPatch(u.designDev.token, 'release');
    made.push(await createPackage(u.designDev.token, resource.id, 'RELEASE_UNSIGNED', `${tag}-${suffix}`));
  }
});

type ViewBody = { packages: string; total?: number; nextCursor?: string; errorMessage?: string };

async function view(path: string, token = u.lead.token) {
  const r = await api<ViewBody>(path, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.nextCursor).toBeUndefined();
  return { rows: jsonText<Package[]>(r.body.packages), total: r.body.total };
}

const names = (rows: Package[]) => rows.map((p) => p.name.slice(tag.length + 1));

describe('package list views: search, sort, page and total on the server', () => {
  it('searches case-insensitively, sorts by a column and pages with the total of the matches', async () => {
    const search = tag.toUpperCase();
    const first = await view(`/release/packages?offset=0&limit=2&search=${search}&sort=name&order=asc`);
    expect(first.total).toBe(3);
    expect(names(first.rows)).toEqual(['A', 'b']);
    const second = await view(`/release/packages?offset=2&limit=2&search=${search}&sort=name&order=asc`);
    expect(second.total).toBe(3);
    expect(names(second.rows)).toEqual(['c']);
    const desc = await view(`/release/packages?offset=0&limit=5&search=${tag}&sort=name&order=desc`);
    expect(names(desc.rows)).toEqual(['c', 'b', 'A']);
    // rows are whole list entries, as the whole list answers them
    expect(desc.rows[0]).toMatchObject({ id: made[2]?.id, status: 'DRAFT', approvers: [] });
  });

  it('without a sort keeps the list order (newest first), and the total is the whole list', async () => {
    const whole = await api<ViewBody>('/release/packages', { token: u.lead.token });
    const list = jsonText<Package[]>(whole.body.packages);
    const page = await view('/release/packages?offset=0&limit=5');
    expect(page.total).toBe(list.length);
    expect(page.rows.map((p) => p.id)).toEqual(list.slice(0, 5).map((p) => p.id));
    const mine = await view(`/release/packages?offset=0&limit=25&search=${tag}`);
    expect(names(mine.rows)).toEqual(['c', 'A', 'b']);
  });

  it('searches the resource name and the note too, and answers an empty page past the end', async () => {
    const byNote = await view(`/release/packages?offset=0&limit=1&search=PUMP%20OCCLUSION`);
    expect(byNote.total).toBeGreaterThanOrEqual(3);
    const resourceName = made[0]?.resourceName ?? '';
    const byResource = await view(
      `/release/packages?offset=0&limit=5&search=${encodeURIComponent(resourceName)}`,
    );
    expect(byResource.rows.map((p) => p.id)).toContain(made[0]?.id);
    const past = await view(`/release/packages?offset=100000&limit=5&search=${tag}`);
    expect(past).toEqual({ rows: [], total: 3 });
    const none = await view(`/release/packages?offset=0&limit=5&search=${tag}-nothing`);
    expect(none).toEqual({ rows: [], total: 0 });
  });

  it('sees a package created and one deleted after the list was read', async () => {
    expect((await view(`/release/packages?offset=0&limit=5&search=${tag}`)).total).toBe(3);
    const resource = await uploadPatch(u.designDev.token, 'release');
    const added = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED', `${tag}-d`);
    const after = await view(`/release/packages?offset=0&limit=5&search=${tag}&sort=signed&order=desc`);
    expect(after.total).toBe(4);
    // the signed column sorts as it shows: Yes before No when descending
    expect(after.rows[0]?.id).toBe(added.id);
    const del = await api('/admin/packages', { method: 'DELETE', token: u.admin.token, body: [added.id] });
    expect(del.status).toBe(200);
    const gone = await view(`/release/packages?offset=0&limit=5&search=${tag}`);
    expect(gone.total).toBe(3);
    expect(gone.rows.map((p) => p.id)).not.toContain(added.id);
  });

  it('serves the admin list and the delivery list the same way', async () => {
    const admin = await view(`/admin/packages?offset=0&limit=2&search=${tag}&sort=name`, u.admin.token);
    expect(admin.total).toBe(3);
    expect(names(admin.rows)).toEqual(['A', 'b']);
    const delivery = await view(`/delivery/packages?offset=0&limit=5&search=${tag}`);
    expect(delivery).toEqual({ rows: [], total: 0 });
  });

  it("reads the caller's own drafts of a stage for the home page, and nobody else's", async () => {
    const mine = await view('/release/packages?drafts=mine', u.designDev.token);
    const ids = mine.rows.map((p) => p.id);
    for (const p of made) expect(ids).toContain(p.id);
    expect(mine.rows.every((p) => p.status === 'DRAFT' && p.initiator.id === made[0]?.initiator.id)).toBe(
      true,
    );
    const lead = await view('/release/packages?drafts=mine', u.lead.token);
    expect(lead.rows.map((p) => p.id)).not.toContain(made[0]?.id);
  });

  it('refuses bad view parameters with a clear message and reads nothing', async () => {
    const cases: [string, string][] = [
      ['/release/packages?offset=-1', 'offset must be a whole number from 0'],
      [
        '/release/packages?offset=0&sort=initiator',
        'sort must be one of name, resourceName, resourceType, resourceStage, signed, note',
      ],
      ['/release/packages?offset=0&sort=name&order=up', "order must be 'asc' or 'desc'"],
      ['/release/packages?offset=0&order=asc', 'order needs sort'],
      ['/release/packages?offset=0&limit=0', 'limit must be a whole number from 1 to 1000'],
      ['/release/packages?search=x&cursor=abc', 'cursor cannot be combined with offset, search or sort'],
      [`/release/packages?offset=0&search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
      ['/release/packages?drafts=all', "drafts must be 'mine'"],
      ['/delivery/packages?drafts=mine', 'drafts is only for the dev and release lists'],
    ];
    for (const [path, message] of cases) {
      const r = await api<ViewBody>(path, { token: u.lead.token });
      expect(r.status, path).toBe(400);
      expect(r.body.errorMessage, path).toBe(message);
    }
  });
});
