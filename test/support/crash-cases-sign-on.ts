import { COMPANY_PASSWORD, type CompanyAccount } from '../../infra/local/company-idp';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { jsonText, uniq } from './api';
import { CompanyBrowser, putCompanyAccounts } from './company-idp';
import { callbackPrefix } from './company-sign-on';
import { type Account, confirmed, granted } from './crash-cases-identity';
import type { CrashHarness, Prepared, RouteCase } from './crash-harness';
import { originOf, passkeySteps } from './passkeys';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * The crash matrix's sign-on routes: company sign-on (decision 315) at the stack's own local provider,
 * driven as the SPA and a browser do, and passkeys (decisions 322–323) answered by the software
 * authenticator. A retry after a crash may meet a single-use item (a sign-in under way, an offer, a
 * ceremony) the crashed call already took: it answers a 4xx that names it, and `settled` proves the person
 * gets on by starting again (a new sign-in, a new ceremony), with state and record in agreement.
 */

interface Employee {
  person: CompanyAccount;
  browser: CompanyBrowser;
}

/** A new person of the company (an address on the allowed domain) in the crash stack's directory. */
function employee(h: CrashHarness, email?: string): Employee {
  const sub = uniq('emp');
  const person: CompanyAccount = {
    sub,
    email: email ?? `${sub}@example.com`,
    email_verified: true,
    name: `Employee ${sub.slice(-5)}`,
    password: COMPANY_PASSWORD,
  };
  putCompanyAccounts(h.stack.dataDir, [person]);
  return { person, browser: new CompanyBrowser() };
}

/** A started sign-in answered at the provider: the callback request, not yet sent. */
async function answered(h: CrashHarness, e: Employee, token?: string): Promise<Prepared> {
  const started = await h.kit.must<{ authorizationUrl: string; binding: string }>(
    200,
    token ? '/company-sign-on/reauth' : '/company-sign-on/start',
    { method: 'POST', token },
  );
  const r = await e.browser.signIn(
    started.body.authorizationUrl,
    callbackPrefix(h.stack.url),
    e.person.email,
    COMPANY_PASSWORD,
  );
  if (!('search' in r))
    throw new Error(`the provider did not send the browser back: ${r.page.slice(0, 300)}`);
  return {
    path: '/company-sign-on/callback',
    method: 'POST',
    body: { search: r.search, binding: started.body.binding },
  };
}

interface CallbackAnswer {
  outcome: string;
  token?: string;
  user?: string;
  linkTicket?: string;
}

/** The whole company sign-in: what the callback answered. */
async function signInAtCompany(h: CrashHarness, e: Employee): Promise<CallbackAnswer> {
  return (await h.kit.must<CallbackAnswer>(200, '/company-sign-on/callback', await answered(h, e))).body;
}

/** A person whose first company sign-in made their account: signed in, with its id. */
async function companyAccount(h: CrashHarness): Promise<Employee & { id: string; token: string }> {
  const e = employee(h);
  const r = await signInAtCompany(h, e);
  if (r.outcome !== 'SIGNED_IN') throw new Error(`first sign-in answered ${r.outcome}`);
  return { ...e, id: jsonText<{ id: string }>(r.user).id, token: r.token! };
}

/** A portal account (`a`, else a confirmed one) and a company person with its address, offered the link. */
async function offered(
  h: CrashHarness,
  account?: Account,
): Promise<{ a: Account; e: Employee; linkTicket: string }> {
  const a = account ?? (await confirmed(h));
  const e = employee(h, a.email);
  const r = await signInAtCompany(h, e);
  if (r.outcome !== 'LINK_REQUIRED') throw new Error(`expected a link offer, got ${r.outcome}`);
  return { a, e, linkTicket: r.linkTicket! };
}

/** After a retry that met a taken item: a new company sign-in of the same person gets where it should. */
async function signsInAgain(h: CrashHarness, e: Employee, expected: string[]): Promise<string | null> {
  const r = await signInAtCompany(h, e);
  return expected.includes(r.outcome)
    ? null
    : `a new company sign-in answered ${r.outcome}, not ${expected.join(' or ')}`;
}

/** A portal account (`account`, else a confirmed one) linked to its company identity by the password. */
async function linked(h: CrashHarness, account?: Account) {
  const { a, e, linkTicket } = await offered(h, account);
  await h.kit.must(200, '/company-sign-on/link', {
    method: 'POST',
    body: { linkTicket, password: a.password },
  });
  return { a, e };
}

/** An account whose owner asked two admins to link its company identity. */
async function requested(h: CrashHarness) {
  const { a, e, linkTicket } = await offered(h);
  await h.kit.must(200, '/company-sign-on/link-request', { method: 'POST', body: { linkTicket } });
  return { a, e };
}

const decideLinks = (token: string, body: Record<string, unknown>): Omit<Prepared, 'path'> => ({
  method: 'POST',
  token,
  body,
});

function companyCases(): RouteCase[] {
  return [
    {
      route: 'startCompanySignOn',
      async prepare(h) {
        // the source's quota window exists already: every run makes the same writes
        await h.kit.must(200, '/company-sign-on/start', { method: 'POST' });
        return { path: '/company-sign-on/start', method: 'POST' };
      },
    },
    {
      route: 'companySignOnCallback',
      variant: 'a first sign-in makes the account',
      // the sign-in under way is single use: a retry after it was taken names it (start again)
      retryAnswers: [200, 400],
      async prepare(h) {
        const e = employee(h);
        return { ...(await answered(h, e)), ctx: { e } };
      },
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['SIGNED_IN']),
    },
    {
      route: 'companySignOnCallback',
      variant: 'a linked identity signs in',
      retryAnswers: [200, 400],
      async prepare(h) {
        const c = await companyAccount(h);
        return { ...(await answered(h, c)), ctx: { e: c } };
      },
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['SIGNED_IN']),
    },
    {
      route: 'companySignOnCallback',
      variant: "an account's address: the link is offered",
      retryAnswers: [200, 400],
      async prepare(h) {
        const a = await confirmed(h);
        const e = employee(h, a.email);
        return { ...(await answered(h, e)), ctx: { e } };
      },
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['LINK_REQUIRED']),
    },
    {
      route: 'companySignOnCallback',
      variant: 'a reauthentication for a signature',
      retryAnswers: [200, 400],
      async prepare(h) {
        // a signature's proof: an account with a granted role (a first sign-in's account has none)
        const { a, e } = await linked(h, await granted(h));
        return answered(h, e, a.token);
      },
    },
    {
      route: 'linkCompanyIdentity',
      // the offer is single use: taken by the crashed call, the retry names it (sign in again)
      retryAnswers: [200, 400],
      async prepare(h) {
        const { a, e, linkTicket } = await offered(h);
        return {
          path: '/company-sign-on/link',
          method: 'POST',
          body: { linkTicket, password: a.password },
          ctx: { e },
        };
      },
      // linked, or offered again (nothing half-linked)
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['SIGNED_IN', 'LINK_REQUIRED']),
    },
    {
      route: 'requestCompanyLink',
      retryAnswers: [200, 400],
      async prepare(h) {
        const { e, linkTicket } = await offered(h);
        return { path: '/company-sign-on/link-request', method: 'POST', body: { linkTicket }, ctx: { e } };
      },
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['LINK_REQUIRED']),
    },
    {
      route: 'startCompanyReauth',
      async prepare(h) {
        const { a } = await linked(h, await granted(h));
        return { path: '/company-sign-on/reauth', method: 'POST', token: a.token };
      },
    },
    {
      route: 'adminDecideCompanyLinks',
      variant: 'a link proposed',
      // the proposer's retry: their own proposal now waits for a second admin (403)
      retryAnswers: [200, 403],
      async prepare(h) {
        const { a } = await requested(h);
        const body = { ids: [a.id], decision: 'LINK', password: SEED_PASSWORD };
        return { path: '/admin/users/company-links', ...decideLinks(h.u.admin.token, body) };
      },
    },
    {
      route: 'adminDecideCompanyLinks',
      variant: 'a link confirmed by a second admin',
      // linked: the request is gone (409)
      retryAnswers: [200, 409],
      async prepare(h) {
        const { a, e } = await requested(h);
        const body = { ids: [a.id], decision: 'LINK', password: SEED_PASSWORD };
        await h.kit.must(200, '/admin/users/company-links', decideLinks(h.u.admin.token, body));
        return { path: '/admin/users/company-links', ...decideLinks(h.u.admin2.token, body), ctx: { e } };
      },
      settled: (h, p) => signsInAgain(h, p.ctx!.e as Employee, ['SIGNED_IN']),
    },
    {
      route: 'adminDecideCompanyLinks',
      variant: 'a link request refused',
      retryAnswers: [200, 409],
      async prepare(h) {
        const { a } = await requested(h);
        return {
          path: '/admin/users/company-links',
          ...decideLinks(h.u.admin.token, { ids: [a.id], decision: 'REFUSE' }),
        };
      },
    },
    {
      route: 'adminDecideCompanyLinks',
      variant: 'an identity unlinked',
      retryAnswers: [200, 409],
      async prepare(h) {
        const { a } = await linked(h);
        const body = { ids: [a.id], decision: 'UNLINK', password: SEED_PASSWORD };
        return { path: '/admin/users/company-links', ...decideLinks(h.u.admin.token, body) };
      },
    },
  ];
}

/** A confirmed account holding one passkey of `auth`: the account (signed in) and the passkey's id. */
async function withPasskey(h: CrashHarness) {
  const a = await confirmed(h);
  const auth = new SoftAuthenticator(originOf(h.stack.url));
  const added = await passkeySteps(h.stack.url).addPasskey(a.token!, auth, 'Laptop', a.password);
  if (added.status !== 201)
    throw new Error(`adding a passkey: ${added.status} ${JSON.stringify(added.body)}`);
  return { a, auth, passkeyId: (added.body as { passkey: { id: string } }).passkey.id };
}

/** The account can still sign in with both factors after the retry (nothing stuck). */
async function signsInWithPasskey(
  h: CrashHarness,
  a: Account,
  auth: SoftAuthenticator,
): Promise<string | null> {
  const r = await passkeySteps(h.stack.url).signIn(a.email, a.password, auth);
  return r.second.status === 200 ? null : `a new sign-in's passkey step answered ${r.second.status}`;
}

const removal = (token: string, reason: string) => ({
  method: 'POST',
  token,
  body: { password: SEED_PASSWORD, reason },
});

function passkeyCases(): RouteCase[] {
  return [
    {
      route: 'loginPasskey',
      // the ticket is single use: taken by the crashed call, the retry is refused (sign in again)
      retryAnswers: [200, 401],
      async prepare(h) {
        const { a, auth } = await withPasskey(h);
        const steps = passkeySteps(h.stack.url);
        const first = await steps.firstFactor(a.email, a.password);
        const sf = first.body.secondFactor;
        if (!sf) throw new Error(`no passkey step owed: ${JSON.stringify(first.body)}`);
        return {
          path: '/user/login/passkey',
          method: 'POST',
          body: { ticket: sf.ticket, response: auth.assert(sf.publicKey) },
          ctx: { a, auth },
        };
      },
      settled: (h, p) => signsInWithPasskey(h, p.ctx!.a as Account, p.ctx!.auth as SoftAuthenticator),
    },
    {
      route: 'passkeyRegistrationOptions',
      async prepare(h) {
        const a = await confirmed(h);
        return {
          path: '/passkeys/registration-options',
          method: 'POST',
          token: a.token,
          body: { password: a.password },
        };
      },
    },
    {
      route: 'addPasskey',
      // the ceremony is single use: the retry names it; a new ceremony adds the passkey
      retryAnswers: [201, 400],
      async prepare(h) {
        const a = await confirmed(h);
        const auth = new SoftAuthenticator(originOf(h.stack.url));
        const start = await h.kit.must<{ ceremonyId: string; publicKey: never }>(
          200,
          '/passkeys/registration-options',
          { method: 'POST', token: a.token, body: { password: a.password } },
        );
        return {
          path: '/passkeys',
          method: 'POST',
          token: a.token,
          body: {
            ceremonyId: start.body.ceremonyId,
            name: 'Laptop',
            response: auth.register(start.body.publicKey),
          },
          ctx: { a },
        };
      },
      async settled(h, p, retry) {
        const a = p.ctx!.a as Account;
        const held = (await passkeySteps(h.stack.url).listed(a.token!)).passkeys.length;
        if (retry.status === 201 || held === 1)
          return held === 1 ? null : `the account holds ${held} passkeys`;
        const again = await passkeySteps(h.stack.url).addPasskey(
          a.token!,
          new SoftAuthenticator(originOf(h.stack.url)),
          'Laptop',
          a.password,
        );
        return again.status === 201 ? null : `adding the passkey again answered ${again.status}`;
      },
    },
    {
      route: 'renamePasskey',
      async prepare(h) {
        const { a, passkeyId } = await withPasskey(h);
        return {
          path: `/passkeys/${passkeyId}`,
          method: 'PATCH',
          token: a.token,
          body: { name: 'Desk key' },
        };
      },
    },
    {
      route: 'removePasskey',
      // removed: the account's sessions ended with it (401), or the passkey is gone (404)
      retryAnswers: [200, 401, 404],
      async prepare(h) {
        const { a, passkeyId } = await withPasskey(h);
        return {
          path: `/passkeys/${passkeyId}`,
          method: 'DELETE',
          token: a.token,
          body: { password: a.password },
        };
      },
    },
    {
      route: 'passkeySignatureOptions',
      async prepare(h) {
        const { a } = await withPasskey(h);
        return { path: '/passkeys/signature-options', method: 'POST', token: a.token };
      },
    },
    {
      route: 'adminDecidePasskeyRemoval',
      variant: 'a removal proposed',
      // the proposer's retry: their own proposal waits for a second admin (403)
      retryAnswers: [200, 403],
      async prepare(h) {
        const { a, auth, passkeyId } = await withPasskey(h);
        const path = `/admin/users/${a.id}/passkeys/${passkeyId}/removal`;
        return { path, ...removal(h.u.admin.token, 'lost on a trip'), ctx: { a, auth } };
      },
      settled: (h, p) => signsInWithPasskey(h, p.ctx!.a as Account, p.ctx!.auth as SoftAuthenticator),
    },
    {
      route: 'adminDecidePasskeyRemoval',
      variant: 'a removal confirmed by a second admin',
      // removed: the passkey is gone (404)
      retryAnswers: [200, 404],
      async prepare(h) {
        const { a, passkeyId } = await withPasskey(h);
        const path = `/admin/users/${a.id}/passkeys/${passkeyId}/removal`;
        await h.kit.must(200, path, removal(h.u.admin.token, 'lost on a trip'));
        return { path, ...removal(h.u.admin2.token, 'lost on a trip') };
      },
    },
  ];
}

/** Every writing route of the company sign-on and passkey tables. */
export function signOnCases(): RouteCase[] {
  return [...companyCases(), ...passkeyCases()];
}
