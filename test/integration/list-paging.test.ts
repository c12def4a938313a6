import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText } from '../support/api';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
  // at least three packages in the release list, so a walk with limit=2 spans pages
  for (let i = 0; i < 3; i++) {
    const resource = await uploadPatch(u.designDev.token, 'release');
    await createPackage(u.designDev.token, resource.id, 'RELEASE_UNSIGNED');
  }
});

type ListBody = { packages: string; nextCursor?: string; errorMessage?: string };

async function whole(path: string, token: string): Promise<Package[]> {
  const r = await api<ListBody>(path, { token });
  expect(r.status).toBe(200);
  expect(r.body.nextCursor).toBeUndefined();
  return jsonText<Package[]>(r.body.packages);
}

/** Every page of a list, following nextCursor; the pages' sizes too. */
async function walk(path: string, token: string, limit: number) {
  const all: Package[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const q = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const r = await api<ListBody>(`${path}?${q}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = jsonText<Package[]>(r.body.packages);
    expect(page.length).toBeLessThanOrEqual(limit);
    all.push(...page);
    sizes.push(page.length);
    cursor = r.body.nextCursor;
    if (!cursor) break;
  }
  return { all, sizes };
}

describe('package lists, paged on request', () => {
  it('answers the whole list without a cursor when no paging parameter is sent, as before', async () => {
    const list = await whole('/release/packages', u.lead.token);
    expect(list.length).toBeGreaterThanOrEqual(3);
  });

  it('walks the release list in pages of two and finds exactly the whole list, in the same order', async () => {
    const list = await whole('/release/packages', u.lead.token);
    const { all, sizes } = await walk('/release/packages', u.lead.token, 2);
    expect(all.map((p) => p.id)).toEqual(list.map((p) => p.id));
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(all[0]).toEqual(list[0]);
  });

  it('pages the delivery list and the admin list the same way', async () => {
    const delivery = await whole('/delivery/packages', u.lead.token);
    expect((await walk('/delivery/packages', u.lead.token, 3)).all.map((p) => p.id)).toEqual(
      delivery.map((p) => p.id),
    );
    const admin = await whole('/admin/packages', u.admin.token);
    expect((await walk('/admin/packages', u.admin.token, 7)).all.map((p) => p.id)).toEqual(
      admin.map((p) => p.id),
    );
  });

  it('refuses a limit that is not a whole number from 1 to 1000, with a clear message', async () => {
    for (const limit of ['0', '1001', 'abc', '-1', '2.5', '']) {
      const r = await api<ListBody>(`/dev/packages?limit=${limit}`, { token: u.lead.token });
      expect(r.status, `limit=${limit}`).toBe(400);
      expect(r.body.errorMessage).toBe('limit must be a whole number from 1 to 1000');
    }
  });

  it('refuses a cursor it did not issue for that list: garbage, tampered, or from another list', async () => {
    const first = await api<ListBody>('/release/packages?limit=1', { token: u.lead.token });
    const cursor = first.body.nextCursor!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, string>;
    const forged = (k: unknown) => Buffer.from(JSON.stringify(k)).toString('base64url');
    const bad = [
      'not*a*cursor',
      Buffer.from('not json').toString('base64url'),
      forged([key]),
      forged({ ...key, extra: 'x' }),
      forged({ ...key, createdAt: 7 }),
    ];
    for (const c of bad) {
      const r = await api<ListBody>(`/release/packages?limit=1&cursor=${c}`, { token: u.lead.token });
      expect(r.status, c).toBe(400);
      expect(r.body.errorMessage).toBe('cursor is not a cursor this list returned');
    }
    // a release cursor on the dev list, and on the admin list (another index)
    expect((await api(`/dev/packages?cursor=${cursor}`, { token: u.lead.token })).status).toBe(400);
    expect((await api(`/admin/packages?cursor=${cursor}`, { token: u.admin.token })).status).toBe(400);
    // the genuine cursor continues the list
    const next = await api<ListBody>(`/release/packages?limit=1&cursor=${cursor}`, { token: u.lead.token });
    expect(next.status).toBe(200);
    expect(jsonText<Package[]>(next.body.packages)[0]?.id).not.toBe(
      jsonText<Package[]>(first.body.packages)[0]?.id,
    );
  });

  it('uses a page of 100 when only a cursor is sent', async () => {
    const first = await api<ListBody>('/release/packages?limit=1', { token: u.lead.token });
    const r = await api<ListBody>(`/release/packages?cursor=${first.body.nextCursor}`, {
      token: u.lead.token,
    });
    expect(r.status).toBe(200);
    expect(jsonText<Package[]>(r.body.packages).length).toBeLessThanOrEqual(100);
  });
});
