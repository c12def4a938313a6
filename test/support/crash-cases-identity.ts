import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { jsonText, uniq } from './api';
import { cheapenPasswords } from './cheap-signatures';
import type { CrashHarness, RouteCase } from './crash-harness';

/**
 * The crash matrix's identity, role and access-token routes: each prepares an account through the API
 * (registration, the mailed link, the two-admin grant) in the state its step starts from.
 */

const PASSWORD = 'Crash-Matrix-Pass-1234';

export interface Account {
  id: string;
  email: string;
  password: string;
  /** the newest confirmation link's token, while unconfirmed */
  link?: string;
  token?: string;
}

/** The token of the newest mail to `email` whose text holds `pattern`'s first group. */
export async function fromMail(h: CrashHarness, email: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await h.mailbox())
      .filter((m) => m.to.includes(email))
      .map((m) => pattern.exec(m.text)?.[1])
      .filter((x): x is string => !!x)
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} matching ${pattern}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const LINK = /\/user\/confirm-email\?token=([A-Za-z0-9_-]+)/;

async function registered(h: CrashHarness, role = 'DESIGN_ENGINEER_TEST'): Promise<Account> {
  const email = `${uniq('crash')}@example.com`;
  const r = await h.kit.must<{ user: string }>(201, '/user/register', {
    method: 'POST',
    body: { name: 'Casey Crash', email, password: PASSWORD, userRole: role },
  });
  // its later sign-ins and signatures at cheap parameters (the registration above hashed as the product does)
  await cheapenPasswords(h.ddb, [{ email, password: PASSWORD }]);
  return {
    id: jsonText<{ id: string }>(r.body.user).id,
    email,
    password: PASSWORD,
    link: await fromMail(h, email, LINK),
  };
}

export async function confirmed(h: CrashHarness): Promise<Account> {
  const a = await registered(h);
  await h.kit.must(200, '/user/confirm-email', {
    method: 'POST',
    body: { token: a.link, password: a.password },
  });
  const login = await h.kit.must<{ token: string }>(200, '/user/login', {
    method: 'POST',
    body: { login: a.email, password: a.password },
  });
  return { ...a, link: undefined, token: login.body.token };
}

const roles = (token: string, body: Record<string, unknown>) => ({ method: 'POST', token, body });

async function proposed(h: CrashHarness): Promise<Account> {
  const a = await confirmed(h);
  await h.kit.must(
    200,
    '/admin/users/roles',
    roles(h.u.admin.token, { grant: [a.id], password: SEED_PASSWORD }),
  );
  return a;
}

export async function granted(h: CrashHarness): Promise<Account> {
  const a = await proposed(h);
  await h.kit.must(
    200,
    '/admin/users/roles',
    roles(h.u.admin2.token, { grant: [a.id], password: SEED_PASSWORD }),
  );
  const login = await h.kit.must<{ token: string }>(200, '/user/login', {
    method: 'POST',
    body: { login: a.email, password: a.password },
  });
  return { ...a, token: login.body.token };
}

/** The designer's live access tokens revoked, so the per-user limit never refuses the next one. */
async function noLiveTokens(h: CrashHarness): Promise<void> {
  const r = await h.kit.must<{ accessTokens: { id: string; state: string }[] }>(200, '/access-tokens', {
    token: h.u.designDev.token,
  });
  for (const t of r.body.accessTokens.filter((x) => x.state === 'ACTIVE'))
    await h.kit.must(200, `/access-tokens/${t.id}`, { method: 'DELETE', token: h.u.designDev.token });
}

export function identityCases(): RouteCase[] {
  return [
    {
      route: 'register',
      async prepare() {
        const email = `${uniq('crash')}@example.com`;
        return {
          path: '/user/register',
          method: 'POST',
          body: { name: 'Riley Retry', email, password: PASSWORD, userRole: 'DESIGN_ENGINEER_TEST' },
        };
      },
      retryAnswers: [201, 409],
    },
    {
      route: 'confirmEmail',
      async prepare(h) {
        const a = await registered(h);
        return { path: '/user/confirm-email', method: 'POST', body: { token: a.link, password: a.password } };
      },
    },
    {
      route: 'cancelRegistration',
      retryAnswers: [200, 400, 409],
      async prepare(h) {
        const a = await registered(h);
        return { path: '/user/confirm-email/cancel', method: 'POST', body: { token: a.link } };
      },
    },
    {
      route: 'resendConfirmation',
      async prepare(h) {
        const a = await registered(h);
        return { path: '/user/confirm-email/resend', method: 'POST', body: { email: a.email } };
      },
    },
    {
      route: 'login',
      variant: 'with a mailed temporary password',
      async prepare(h) {
        const a = await confirmed(h);
        await h.kit.must(200, '/user/reset-password', { method: 'POST', body: { email: a.email } });
        const temp = await fromMail(h, a.email, /Temporary password: (\S+)/);
        return { path: '/user/login', method: 'POST', body: { login: a.email, password: temp } };
      },
    },
    {
      route: 'logout',
      retryAnswers: [200, 204, 401],
      async prepare(h) {
        const a = await confirmed(h);
        return { path: '/user/logout', method: 'POST', token: a.token };
      },
    },
    {
      route: 'changePassword',
      // the retry's old password is no longer the password: refused, nothing changes; or, when the
      // change committed, the retry's session is one of the earlier ones it ended: 401, sign in again
      retryAnswers: [200, 401, 403],
      async prepare(h) {
        const a = await confirmed(h);
        return {
          path: '/user/password',
          method: 'POST',
          token: a.token,
          body: { oldPassword: a.password, newPassword: `${PASSWORD}-new` },
        };
      },
    },
    {
      route: 'updateAccount',
      variant: 'a new role asked for',
      async prepare(h) {
        const a = await granted(h);
        return {
          path: '/user/account',
          method: 'POST',
          token: a.token,
          body: { name: 'Casey Crash', email: a.email, userRole: 'RELIABILITY_ENGINEER' },
        };
      },
    },
    {
      route: 'updateAccount',
      variant: 'a new address',
      async prepare(h) {
        const a = await confirmed(h);
        return {
          path: '/user/account',
          method: 'POST',
          token: a.token,
          body: {
            name: 'Casey Crash',
            email: `${uniq('moved')}@example.com`,
            userRole: 'DESIGN_ENGINEER_TEST',
          },
        };
      },
    },
    {
      route: 'resetPassword',
      async prepare(h) {
        const a = await confirmed(h);
        return { path: '/user/reset-password', method: 'POST', body: { email: a.email } };
      },
    },
    {
      route: 'adminDecideRoles',
      variant: 'a grant proposed',
      retryAnswers: [200, 403],
      async prepare(h) {
        const a = await confirmed(h);
        return {
          path: '/admin/users/roles',
          ...roles(h.u.admin.token, { grant: [a.id], password: SEED_PASSWORD }),
        };
      },
    },
    {
      route: 'adminDecideRoles',
      variant: 'a grant confirmed by a second admin',
      async prepare(h) {
        const a = await proposed(h);
        return {
          path: '/admin/users/roles',
          ...roles(h.u.admin2.token, { grant: [a.id], password: SEED_PASSWORD }),
        };
      },
    },
    {
      route: 'adminDecideRoles',
      variant: 'a granted role revoked',
      async prepare(h) {
        const a = await granted(h);
        return { path: '/admin/users/roles', ...roles(h.u.admin.token, { refuse: [a.id] }) };
      },
    },
    {
      route: 'adminDeleteUsers',
      retryAnswers: [200, 204, 404],
      async prepare(h) {
        const a = await confirmed(h);
        return { path: '/admin/users', method: 'DELETE', token: h.u.admin.token, body: [a.id] };
      },
    },
    {
      route: 'createAccessToken',
      async prepare(h) {
        await noLiveTokens(h);
        return {
          path: '/access-tokens',
          method: 'POST',
          token: h.u.designDev.token,
          body: { name: uniq('ci'), expiresInDays: 7, scopes: ['packages:draft'] },
        };
      },
    },
    {
      route: 'revokeAccessToken',
      async prepare(h) {
        await noLiveTokens(h);
        const r = await h.kit.must<{ accessToken: { id: string } }>(201, '/access-tokens', {
          method: 'POST',
          token: h.u.designDev.token,
          body: { name: uniq('ci'), expiresInDays: 7, scopes: ['packages:draft'] },
        });
        const id = r.body.accessToken.id;
        return { path: `/access-tokens/${id}`, method: 'DELETE', token: h.u.designDev.token };
      },
    },
  ];
}
