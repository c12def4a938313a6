import { describe, expect, it } from 'vitest';
import { withTokenEnding } from '../../shared/domain/access-token-endings';
import { ACCESS_TOKEN_CALLS_PER_WINDOW, ACCESS_TOKEN_ERR } from '../../shared/domain/access-tokens';
import type { AccessTokenRecord, AccessTokenRepository } from '../ports/access-token-repository';
import type { AuditEvent } from '../ports/audit-log';
import type { QuotaResult, UserRecord } from '../ports/user-repository';
import { AccessTokenService } from './access-tokens';

/** The rules of access tokens over in-memory stores (the HTTP behaviour: test/integration/access-tokens.test.ts). */
function world() {
  let now = new Date('2026-11-27T10:00:00Z');
  const tokens = new Map<string, AccessTokenRecord>();
  const users = new Map<string, UserRecord>();
  const quotas = new Map<string, number>();
  const events: AuditEvent[] = [];
  const repo: AccessTokenRepository = {
    // each write and its events together, as the adapters' one transaction (decision 283)
    create: async (t, commit) => {
      tokens.set(t.id, structuredClone(t));
      events.push(...(commit?.events ?? []));
    },
    get: async (id) => structuredClone(tokens.get(id)) ?? null,
    listByUser: async (u) => [...tokens.values()].filter((t) => t.userId === u),
    listAll: async () => [...tokens.values()],
    revoke: async (id, at, by, commit) => {
      const t = tokens.get(id);
      if (!t || t.revokedAt) return false;
      Object.assign(t, { revokedAt: at, revokedBy: by });
      events.push(...(commit?.events ?? []));
      return true;
    },
    touch: async (id, at) => void Object.assign(tokens.get(id) ?? {}, { lastUsedAt: at }),
  };
  const service = new AccessTokenService({
    tokens: repo,
    users: {
      getById: async (id) => structuredClone(users.get(id)) ?? null,
      list: async () => [...users.values()],
      takeQuota: async (key, limit): Promise<QuotaResult> => {
        const used = (quotas.get(key) ?? 0) + 1;
        if (used > limit) return { ok: false, retryAfterSeconds: 42 };
        quotas.set(key, used);
        return { ok: true };
      },
    },
    clock: { now: () => now },
  });
  const user = (id: string, over: Partial<UserRecord> = {}): UserRecord => {
    const u: UserRecord = {
      id,
      name: `User ${id}`,
      email: `${id}@example.com`,
      userRole: 'DESIGN_ENGINEER_DEV',
      passwordHash: 'x',
      tokenVersion: 1,
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
      ...over,
    };
    users.set(id, u);
    return u;
  };
  return { service, users, events, user, later: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const upload = { id: 'startMultipartUpload', method: 'POST', tokenScope: 'resources:upload' } as const;
const read = { id: 'getHeader', method: 'GET', tokenScope: 'packages:draft' } as const;
const approve = { id: 'approvePackage', method: 'POST' } as const;
const both = { name: 'ci', expiresInDays: 2, scopes: ['resources:upload', 'packages:draft'] as const };

describe('access tokens', () => {
  it('act as the owner within their scopes, named with the token; a decision needs a person', async () => {
    const w = world();
    const owner = w.user('a');
    const { token } = await w.service.create(owner, { ...both, scopes: [...both.scopes] });
    const acting = await w.service.authenticate(token, upload);
    expect([acting.id, acting.name, acting.viaToken.name]).toEqual(['a', "User a (access token 'ci')", 'ci']);
    await expect(w.service.authenticate(token, approve)).rejects.toMatchObject({
      statusCode: 403,
      message: ACCESS_TOKEN_ERR.personMustSign,
    });
    const narrow = await w.service.create(owner, { ...both, scopes: ['packages:draft'] });
    await expect(w.service.authenticate(narrow.token, upload)).rejects.toMatchObject({
      statusCode: 403,
      message: ACCESS_TOKEN_ERR.missingScope('resources:upload'),
    });
    expect(w.events.map((e) => e.action)).toEqual(['ACCESS_TOKEN_CREATED', 'ACCESS_TOKEN_CREATED']);
  });

  it('count changing calls against a per-token quota (429 with the wait), reads not at all', async () => {
    const w = world();
    const { token } = await w.service.create(w.user('a'), { ...both, scopes: [...both.scopes] });
    for (let i = 0; i < ACCESS_TOKEN_CALLS_PER_WINDOW; i++) await w.service.authenticate(token, upload);
    await expect(w.service.authenticate(token, upload)).rejects.toMatchObject({
      statusCode: 429,
      message: ACCESS_TOKEN_ERR.tooManyCalls(42),
    });
    await expect(w.service.authenticate(token, read)).resolves.toMatchObject({ id: 'a' });
  });

  it('end with expiry, revocation, the owner deleted, moved to another role, refused or forced to a new password', async () => {
    const w = world();
    const make = async (id: string) =>
      (await w.service.create(w.user(id), { ...both, scopes: ['packages:draft'] })).token;
    const [expiring, revoked, deleted, moved, refused, reset] = await Promise.all(
      ['e', 'r', 'd', 'm', 'f', 'p'].map(make),
    );
    const listed = await w.service.list(w.users.get('r')!);
    await w.service.revoke(w.users.get('r')!, listed[0]!.id);
    w.users.delete('d');
    w.user('m', { userRole: 'DESIGN_ENGINEER_TEST' });
    w.user('f', { roleStatus: 'REFUSED' });
    w.user('p', { mustChangePassword: true });
    await expect(w.service.authenticate(revoked!, read)).rejects.toMatchObject({ statusCode: 401 });
    for (const [t, why] of [
      [deleted, "the owner's account was deleted"],
      [moved, "the owner's role changed"],
      [refused, "the owner's role was refused or revoked by an administrator"],
      [reset, "the owner's password was reset"],
    ] as const)
      await expect(w.service.authenticate(t!, read)).rejects.toMatchObject({
        statusCode: 401,
        message: `Token invalid: this access token ended: ${why}`,
      });
    await expect(w.service.authenticate(expiring!, read)).resolves.toMatchObject({ id: 'e' });
    w.later(2 * 24 * 60 * 60 * 1000);
    await expect(w.service.authenticate(expiring!, read)).rejects.toMatchObject({
      statusCode: 401,
      message: 'Token invalid: this access token expired',
    });
  });

  it('stay ended once the owner moved on: the role given back, granted again, a new password (decision 334)', async () => {
    const w = world();
    const owner = w.user('a');
    const { token, accessToken } = await w.service.create(owner, { ...both, scopes: ['packages:draft'] });
    w.later(60_000);
    // the role changed and changed back, granted again: the owner's epoch moved on with the first change
    const moved = withTokenEnding(
      owner,
      { ...owner, userRole: 'DESIGN_ENGINEER_TEST' },
      '2026-11-27T10:01:00Z',
    );
    const back = withTokenEnding(
      moved,
      { ...moved, userRole: 'DESIGN_ENGINEER_DEV' },
      '2026-11-27T10:02:00Z',
    );
    w.user('a', { ...back, roleStatus: 'GRANTED' });
    await expect(w.service.authenticate(token, read)).rejects.toMatchObject({
      statusCode: 401,
      message: "Token invalid: this access token ended: the owner's role changed on 2026-11-27 10:01 UTC",
    });
    const [listed] = await w.service.list(w.users.get('a')!);
    expect(listed).toMatchObject({
      id: accessToken.id,
      state: 'ENDED',
      ended: { cause: 'ROLE_CHANGED', at: '2026-11-27T10:01:00Z' },
    });
    // a token made after the change works, and counts as live; the ended one does not
    const fresh = await w.service.create(w.users.get('a')!, { ...both, scopes: ['packages:draft'] });
    await expect(w.service.authenticate(fresh.token, read)).resolves.toMatchObject({ id: 'a' });
    const admin = w.user('root', { userRole: 'ADMIN' });
    const all = await w.service.list(admin);
    expect(all.map((t) => [t.id, t.state])).toEqual([
      [fresh.accessToken.id, 'ACTIVE'],
      [accessToken.id, 'ENDED'],
    ]);
  });

  it('refuse a forged secret of a real token id, and scopes a role cannot use', async () => {
    const w = world();
    const { token } = await w.service.create(w.user('a'), { ...both, scopes: [...both.scopes] });
    const forged = `${token.slice(0, 21)}${token.at(21) === 'A' ? 'B' : 'A'}${token.slice(22)}`;
    await expect(w.service.authenticate(forged, read)).rejects.toMatchObject({ statusCode: 401 });
    await expect(
      w.service.create(w.user('lead', { userRole: 'TECHNICAL_LEADER' }), {
        ...both,
        scopes: ['resources:upload'],
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      w.service.create(w.user('admin', { userRole: 'ADMIN' }), { ...both, scopes: ['packages:draft'] }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});
