import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES, type Route } from '../../shared/api/routes';
import { api, jsonText, login, uniq } from '../support/api';
import { seededUser } from '../support/fixtures';
import { confirmByMail } from '../support/identity';
import {
  claimsOf,
  type SigningKey,
  signToken,
  tamperedToken,
  tokenSecretOf,
  unsignedToken,
} from '../support/tokens';

/**
 * Every route that is not public refuses every token it should not trust — unsigned, signed with another
 * key or another algorithm, expired, from another issuer, altered after signing, or revoked by logout,
 * password change or deletion — with 401 and an errorMessage. The gate runs before validation, so the
 * calls carry no body and unknown ids: a token that slipped through would show as a 400/403/404 instead.
 */
const guarded = ROUTES.filter((r) => r.access !== 'public');

const sample = (r: Route) =>
  r.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'stage' ? 'dev' : `no-such-${name.toLowerCase()}`,
  );

async function expectRefusedEverywhere(label: string, token: string) {
  const results = await Promise.all(
    guarded.map(async (r) => ({ r, res: await api(sample(r), { method: r.method, token }) })),
  );
  for (const { r, res } of results) {
    expect(res.status, `${label} on ${r.method} ${r.path}: ${JSON.stringify(res.body)}`).toBe(401);
    expect(typeof res.body.errorMessage, `${label} on ${r.id}`).toBe('string');
  }
}

/** Registers a throw-away user and signs them in. */
async function newcomer(role = 'TECHNICAL_LEADER') {
  const email = `${uniq('token')}@example.com`;
  const password = 'Token-Tests-Pass-1';
  const r = await api<{ user: string }>('/user/register', {
    method: 'POST',
    body: { name: 'Token Tester', email, password, userRole: role },
  });
  expect(r.status).toBe(201);
  await confirmByMail(email, password);
  return {
    id: jsonText<{ id: string }>(r.body.user).id,
    email,
    password,
    token: await login(email, password),
  };
}

let u: Record<'admin' | 'designDev', Awaited<ReturnType<typeof seededUser>>>;
let secret: SigningKey;
beforeAll(async () => {
  u = { admin: await seededUser('admin'), designDev: await seededUser('designDev') };
  secret = tokenSecretOf(inject('dataDir'));
});

describe('forged and expired tokens are refused on every guarded route', () => {
  it('a control: the stack secret signs tokens the gate accepts, so the refusals below are meaningful', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    const good = await signToken(secret, { sub, tv });
    expect((await api('/admin/users', { token: good })).status).toBe(200);
  });

  it("refuses alg 'none'", async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('alg none', unsignedToken({ sub, tv }));
  });

  it('refuses a token without a kid, or naming a key the stack does not hold, though signed with its key', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('no kid', await signToken(secret.secret, { sub, tv }));
    await expectRefusedEverywhere(
      'unknown kid',
      await signToken({ kid: 'k-not-in-the-set', secret: secret.secret }, { sub, tv }),
    );
  });

  it('refuses a token signed with another key', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere(
      'another key',
      await signToken({ kid: secret.kid, secret: randomBytes(48).toString('base64url') }, { sub, tv }),
    );
  });

  it('refuses the right key under another algorithm (HS512), as the algorithm is pinned', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('HS512', await signToken(secret, { sub, tv }, 'HS512'));
  });

  it('refuses an expired token signed with the right key', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('expired', await signToken(secret, { sub, tv, expiresIn: -5 }));
  });

  it('refuses a token of another issuer, and one for a user who does not exist', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('issuer', await signToken(secret, { sub, tv, issuer: 'someone-else' }));
    await expectRefusedEverywhere('unknown user', await signToken(secret, { sub: 'no-such-user', tv: 1 }));
  });

  it('refuses a token carrying a token version the user does not have', async () => {
    const { sub, tv } = claimsOf(u.admin.token);
    await expectRefusedEverywhere('future version', await signToken(secret, { sub, tv: tv + 1 }));
  });

  it('refuses a real token whose payload was altered (subject, role, expiry), the signature kept', async () => {
    const dev = u.designDev.token;
    await expectRefusedEverywhere('sub → admin', tamperedToken(dev, { sub: u.admin.id }));
    await expectRefusedEverywhere('role claim', tamperedToken(dev, { role: 'ADMIN', userRole: 'ADMIN' }));
    await expectRefusedEverywhere('exp extended', tamperedToken(dev, { exp: 9_999_999_999 }));
    // and the untouched token still works: only the alteration was refused
    expect((await api('/user/auth', { method: 'POST', token: dev })).status).toBe(200);
  });
});

describe('revoked tokens are refused on every guarded route', () => {
  it('after logout, every earlier token of the user', async () => {
    const n = await newcomer();
    const second = await login(n.email, n.password);
    expect((await api('/user/logout', { method: 'POST', token: n.token })).status).toBe(200);
    await expectRefusedEverywhere('after logout', n.token);
    await expectRefusedEverywhere('second session after logout', second);
  });

  it('after a password change, the tokens issued before it', async () => {
    const n = await newcomer();
    const r = await api<{ token: string }>('/user/password', {
      method: 'POST',
      token: n.token,
      body: { oldPassword: n.password, newPassword: 'Token-Tests-Pass-2' },
    });
    expect(r.status).toBe(200);
    await expectRefusedEverywhere('after password change', n.token);
    expect((await api('/user/auth', { method: 'POST', token: r.body.token })).status).toBe(200);
  });

  it('after the user is deleted, their tokens, even re-signed with the right key', async () => {
    const n = await newcomer('DESIGN_ENGINEER_DEV');
    const del = await api('/admin/users', { method: 'DELETE', token: u.admin.token, body: [n.id] });
    expect(del.status).toBe(200);
    await expectRefusedEverywhere('deleted user', n.token);
    const { sub, tv } = claimsOf(n.token);
    await expectRefusedEverywhere('deleted user, fresh signature', await signToken(secret, { sub, tv }));
  });
});
