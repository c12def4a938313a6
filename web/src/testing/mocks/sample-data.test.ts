import { CONTRACT } from '@shared/api/contract';
import type { RouteId } from '@shared/api/routes';
import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { describe, expect, it } from 'vitest';
import { DCCS, PACKAGES, RESOURCES } from './fixtures';
import { PACKAGE_FIXTURES } from './package-fixtures';
import { SAMPLE_ANSWERS, SAMPLE_USERS } from './sample-answers';

/** Spec §6: "The five non-admin roles appear as delivery approvers in sample data." (issue 16 item 6) */
describe('mock sample data', () => {
  const all = [...PACKAGES, ...PACKAGE_FIXTURES];

  it('has every non-admin role, the SW/FW Release Engineer included, among the delivery approvers', () => {
    const roles = new Set(all.flatMap((p) => p.deliveryApprovers.map((a) => a.role)));
    expect([...roles].sort()).toEqual([...NON_ADMIN_ROLES].sort());
  });

  it('carries the review facts the server answers (decision 150): every package its file, every package with a DCC its values', () => {
    for (const p of all) {
      expect(p.resourceFile?.sha256, p.id).toMatch(/^[0-9a-f]{64}$/);
      if (p.dccId) expect(p.dcc?.deviceId, p.id).toBeTruthy();
    }
  });
});

/** Decision 230: mock mode answers each route from the sample data, in the shape the API answers. */
describe('mock mode answers', () => {
  const lead = SAMPLE_USERS.find((u) => u.id === 'u-lead');
  const call = {
    user: lead,
    params: { id: 'pk-approve-dev', stage: 'dev', dccId: 'd-1', uploadId: 'sample-upload' },
    query: new URLSearchParams(),
    body: { login: 'technical-leader@example.com', password: 'Local-Dev-1234', name: 'Pat' },
  };

  it.each(Object.keys(SAMPLE_ANSWERS))('%s answers what its route answers', (id) => {
    const { status = 200, body } = SAMPLE_ANSWERS[id]!(call);
    expect(status, id).toBeLessThan(300);
    const parsed = CONTRACT[id as RouteId].response.safeParse(body);
    expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
  });
});

/** Decision 221 in mock mode: the admin lists answer the paged form the real API gives (data, no workflow). */
describe('mock mode admin lists: offset, limit, search, sort → one page and total', () => {
  const admin = SAMPLE_USERS.find((u) => u.userRole === 'ADMIN');
  const ask = (id: string, query: string) =>
    SAMPLE_ANSWERS[id]!({
      user: admin,
      params: { stage: 'dev' },
      query: new URLSearchParams(query),
      body: {},
    });

  it.each([
    ['adminListUsers', 'users', SAMPLE_USERS.length],
    ['adminListResources', 'resources', RESOURCES.length],
    ['adminListDcc', 'dcc', DCCS.length],
  ] as const)('%s: a page of 2 and the total; the whole list without view parameters', (id, key, count) => {
    const paged = ask(id, 'offset=0&limit=2');
    expect(paged.body.total).toBe(count);
    expect(JSON.parse(paged.body[key] as string)).toHaveLength(Math.min(2, count));
    expect(CONTRACT[id].response.safeParse(paged.body).success).toBe(true);
    const whole = ask(id, '');
    expect(whole.body.total).toBeUndefined();
    expect(JSON.parse(whole.body[key] as string)).toHaveLength(count);
  });

  it('searches and sorts by the table rules, and refuses order without sort', () => {
    const pending = SAMPLE_USERS.find((u) => u.roleStatus !== 'GRANTED')!;
    const found = ask('adminListUsers', `search=${encodeURIComponent(pending.email)}`);
    expect(found.body.total).toBe(1);
    expect(JSON.parse(found.body.users as string)[0].id).toBe(pending.id);
    const sorted = ask('adminListUsers', 'sort=name&order=desc&limit=100');
    const names = (JSON.parse(sorted.body.users as string) as { name: string }[]).map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect(ask('adminListUsers', 'order=desc').status).toBe(400);
  });
});
