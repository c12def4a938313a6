import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dcc } from '../../shared/api/contracts/dcc';
import type { Resource } from '../../shared/api/contracts/resources';
import type { PublicUser } from '../../shared/api/contracts/user';
import {
  ADMIN_RESOURCE_LIST,
  DCC_LIST,
  type ListColumns,
  RESOURCE_LIST,
  USER_LIST,
} from '../../shared/domain/list-columns';
import { filterRows, sortRows } from '../../shared/domain/list-view';
import { api, jsonText } from '../support/api';
import { createDcc, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';

// decision 221: the resource, DCC and user lists answer one page of the searched, sorted list and its total
let u: Awaited<ReturnType<typeof seededUsers>>;
const tag = `tv${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  u = await seededUsers();
  // names whose case-insensitive order differs from their creation order and from a case-sensitive one
  for (const suffix of ['b', 'A', 'c']) {
    await uploadPatch(u.designDev.token, 'dev', 512, `${tag}-${suffix}`);
    await createDcc(u.designDev.token, `${tag}-${suffix}`);
  }
  await uploadModel(u.designDev.token, 'release', { name: `${tag}-m` });
});

type Body = Record<string, unknown> & { total?: number; errorMessage?: string };

async function read<T>(path: string, field: string, token: string) {
  const r = await api<Body>(path, { token });
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return { rows: jsonText<T[]>(r.body[field] as string), total: r.body.total };
}

interface ListCase {
  name: string;
  path: string;
  field: string;
  token: () => string;
  columns: ListColumns<never>;
  sorts: readonly string[];
  search: string;
}

const LISTS: ListCase[] = [
  {
    name: 'patches',
    path: '/resources/patch/dev',
    field: 'resources',
    token: () => u.lead.token,
    columns: RESOURCE_LIST as ListColumns<never>,
    sorts: ['name', 'uploadTime', 'uploadedBy'],
    search: tag.toUpperCase(),
  },
  {
    name: 'models',
    path: '/resources/model/release',
    field: 'resources',
    token: () => u.lead.token,
    columns: RESOURCE_LIST as ListColumns<never>,
    sorts: ['name', 'modelName', 'modelVersion'],
    search: tag,
  },
  {
    name: 'DCCs',
    path: '/dcc',
    field: 'dcc',
    token: () => u.lead.token,
    columns: DCC_LIST as ListColumns<never>,
    sorts: ['deviceId', 'telemetryType', 'deviceLimit', 'messageLimit'],
    search: '4096',
  },
  {
    name: 'admin DCCs',
    path: '/admin/dcc',
    field: 'dcc',
    token: () => u.admin.token,
    columns: DCC_LIST as ListColumns<never>,
    sorts: ['deviceId', 'messageLimit'],
    search: 'telb',
  },
  {
    name: 'admin resources',
    path: '/admin/resources',
    field: 'resources',
    token: () => u.admin.token,
    columns: ADMIN_RESOURCE_LIST as ListColumns<never>,
    sorts: ['name', 'type', 'stage', 'uploadedBy'],
    search: 'relEASE',
  },
  {
    name: 'admin users',
    path: '/admin/users',
    field: 'users',
    token: () => u.admin.token,
    columns: USER_LIST as ListColumns<never>,
    sorts: ['name', 'email', 'userRole', 'roleStatus'],
    search: 'ENGINEER',
  },
];

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);

describe.each(LISTS)('$name: one page at a time on the server', (c) => {
  it('answers the whole list, byte for byte as before, without a paging parameter (no total)', async () => {
    const whole = await api<Body>(c.path, { token: c.token() });
    expect(whole.status).toBe(200);
    expect(Object.keys(whole.body).sort()).toEqual([c.field]);
    expect(Array.isArray(jsonText<unknown[]>(whole.body[c.field] as string))).toBe(true);
  });

  it('cuts the page the table would show from the whole list: search, sort both ways, offset, total', async () => {
    const whole = (await read<{ id: string }>(c.path, c.field, c.token())).rows;
    for (const by of c.sorts)
      for (const order of ['asc', 'desc'] as const) {
        const found = filterRows(whole as never[], c.search, c.columns.search);
        const expected = sortRows(
          found,
          { columnId: by, direction: order === 'asc' ? 'ascending' : 'descending' },
          (row, col) => (c.columns.sorts as Record<string, (r: never) => never>)[col]?.(row),
        ) as { id: string }[];
        const q = `offset=1&limit=2&search=${encodeURIComponent(c.search)}&sort=${by}&order=${order}`;
        const page = await read<{ id: string }>(`${c.path}?${q}`, c.field, c.token());
        expect(page.total, q).toBe(expected.length);
        expect(ids(page.rows), q).toEqual(ids(expected.slice(1, 3)));
      }
    // no sort: the list's own order; a page past the end is empty with the total
    const first = await read<{ id: string }>(`${c.path}?limit=5`, c.field, c.token());
    expect(first.total).toBe(whole.length);
    expect(ids(first.rows)).toEqual(ids(whole.slice(0, 5)));
    const past = await read<{ id: string }>(`${c.path}?offset=100000&limit=5`, c.field, c.token());
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(whole.length);
  });

  it('refuses bad view parameters with a clear message', async () => {
    const cases: [string, string][] = [
      ['offset=-1', 'offset must be a whole number from 0'],
      ['offset=0&sort=secret', `sort must be one of ${sortsOf(c.path)}`],
      [`offset=0&sort=${c.sorts[0]}&order=up`, "order must be 'asc' or 'desc'"],
      ['offset=0&order=asc', 'order needs sort'],
      ['limit=0', 'limit must be a whole number from 1 to 1000'],
      ['limit=1001', 'limit must be a whole number from 1 to 1000'],
      [`search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
    ];
    for (const [q, message] of cases) {
      const r = await api<Body>(`${c.path}?${q}`, { token: c.token() });
      expect(r.status, q).toBe(400);
      expect(r.body.errorMessage, q).toBe(message);
    }
  });
});

function sortsOf(path: string): string {
  if (path.startsWith('/resources/')) return 'name, uploadTime, uploadedBy, modelName, modelVersion';
  if (path === '/admin/resources') return 'name, type, stage, uploadedBy';
  if (path.endsWith('/dcc')) return 'deviceId, telemetryType, deviceLimit, messageLimit';
  return 'name, email, userRole, roleStatus';
}

describe('the tagged rows, by name', () => {
  it('sorts patch and DCC names case-insensitively and pages them with the total of the matches', async () => {
    const suffixes = (rows: { name?: string; deviceId?: string }[]) =>
      rows.map((r) => (r.name ?? r.deviceId ?? '').slice(tag.length + 1));
    const p1 = await read<Resource>(
      `/resources/patch/dev?offset=0&limit=2&search=${tag.toUpperCase()}&sort=name&order=asc`,
      'resources',
      u.lead.token,
    );
    expect(p1.total).toBe(3);
    expect(suffixes(p1.rows)).toEqual(['A', 'b']);
    const p2 = await read<Resource>(
      `/resources/patch/dev?offset=2&limit=2&search=${tag}&sort=name&order=asc`,
      'resources',
      u.lead.token,
    );
    expect(suffixes(p2.rows)).toEqual(['c']);
    const d = await read<Dcc>(
      `/dcc?offset=0&limit=5&search=${tag}&sort=deviceId&order=desc`,
      'dcc',
      u.lead.token,
    );
    expect(d.total).toBe(3);
    expect(suffixes(d.rows)).toEqual(['c', 'b', 'A']);
    // a row of a page is the whole list's entry
    const whole = (await read<Dcc>('/dcc', 'dcc', u.lead.token)).rows;
    expect(d.rows[0]).toEqual(whole.find((x) => x.id === d.rows[0]?.id));
  });

  it('keeps the admin users list order (what waits for an admin first) when no column is sorted', async () => {
    const whole = (await read<PublicUser>('/admin/users', 'users', u.admin.token)).rows;
    const page = await read<PublicUser>('/admin/users?offset=0&limit=25', 'users', u.admin.token);
    expect(ids(page.rows)).toEqual(ids(whole.slice(0, 25)));
  });

  it('lets only admins read the admin lists, paged or not', async () => {
    for (const path of ['/admin/users?offset=0&limit=5', '/admin/dcc?limit=5', '/admin/resources?limit=5']) {
      const r = await api<Body>(path, { token: u.lead.token });
      expect(r.status, path).toBe(403);
    }
  });
});
