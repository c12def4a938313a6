import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { COMPANY_PASSWORD, type CompanyIdp, startCompanyIdp } from '../../infra/local/company-idp';
import { freePort } from '../../infra/local/ports';
import type { PublicUser } from '../../shared/api/contracts/user';
import { api, jsonText, localDynamo, localTable, login, SEEDED, SEEDED_ADMIN_2 } from '../support/api';
import { CompanyBrowser, updateCompanyAccount } from '../support/company-idp';
import {
  atCompany,
  callback,
  callbackPrefix,
  companySignIn,
  newEmployee,
  startSignOn,
} from '../support/company-sign-on';
import { grantRoles } from '../support/identity';
import { storeSnapshot } from '../support/store';

/**
 * Company sign-on (decision 315) over HTTP against the stack's local provider (oidc-provider, its real
 * login pages): the journey of a new employee, and every attack of the relying party's checks, each a
 * clear 4xx that changes nothing.
 */

const stateOf = (url: string) => new URL(url).searchParams.get('state')!;

async function userEvents(userId: string): Promise<{ action: string; details?: Record<string, unknown> }[]> {
  const ddb = await localDynamo();
  const r = await ddb.send(
    new QueryCommand({
      TableName: localTable('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :z',
      ExpressionAttributeValues: { ':p': `USER#${userId}`, ':z': 0 },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? []) as { action: string; details?: Record<string, unknown> }[];
}

async function adminUsers(): Promise<PublicUser[]> {
  const r = await api<{ users: string }>('/admin/users', { token: await login(SEEDED.admin) });
  expect(r.status).toBe(200);
  return jsonText<PublicUser[]>(r.body.users);
}

/** The users table and the audit trail: refusals must leave both as they were. */
async function snapshot() {
  return storeSnapshot(await localDynamo());
}

// several scrypt checks per test (admins' sign-ins and signatures): generous on a busy shared machine
describe('company sign-on against the local provider', { timeout: 240_000 }, () => {
  it('a first company sign-in makes an account with no role; after its role request and two admins it works', async () => {
    const emp = newEmployee();
    const r = await companySignIn(emp.email);
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBe('SIGNED_IN');
    const user = jsonText<PublicUser>(r.body.user);
    expect(user).toMatchObject({ email: emp.email, name: emp.name, roleStatus: 'NONE', passwordless: true });
    expect(user.companyIdentity).toMatchObject({ subject: emp.sub, linkedBy: 'FIRST_SIGN_IN' });
    const token = r.body.token!;
    // the portal's own session: the spec's auth call knows it, and an ungranted account reads nothing else
    expect((await api('/user/auth', { method: 'POST', token })).status).toBe(200);
    expect((await api('/dcc', { token })).status).toBe(403);

    // the registration's role request, then the same two-admin grant
    const asked = await api<{ user: string }>('/user/account', {
      method: 'POST',
      token,
      body: { name: user.name, email: user.email, userRole: 'DESIGN_ENGINEER_DEV' },
    });
    expect(asked.status).toBe(200);
    expect(jsonText<PublicUser>(asked.body.user)).toMatchObject({ roleStatus: 'REQUESTED' });
    await grantRoles([user.id]);
    expect((await api('/dcc', { token })).status).toBe(200);

    const actions = (await userEvents(user.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['COMPANY_ACCOUNT_CREATED', 'ROLE_REQUESTED']));
    // no granted design engineer stays behind on the shared stack: the other files' packages choose an
    // approver for every role that has a candidate
    const admin = await login(SEEDED.admin);
    const del = await api('/admin/users', { method: 'DELETE', token: admin, body: [user.id] });
    expect(del.status).toBe(200);
  });

  it('signs the same identity in as its account again, by subject: an address changed at the company moves nothing', async () => {
    const emp = newEmployee();
    const first = jsonText<PublicUser>((await companySignIn(emp.email)).body.user);
    // IT renames the address to a colleague's (a seeded account): the identity still signs in as itself
    updateCompanyAccount(inject('dataDir'), emp.sub, { email: SEEDED.designDev });
    const again = await companySignIn(SEEDED.designDev);
    expect(again.status).toBe(200);
    const user = jsonText<PublicUser>(again.body.user);
    expect(user.id).toBe(first.id);
    expect(user.email).toBe(emp.email);
    const colleague = (await adminUsers()).find((u) => u.email === SEEDED.designDev)!;
    expect(colleague.companyIdentity).toBeUndefined();
    const signIns = (await userEvents(first.id)).filter((e) => e.action === 'SIGNED_IN');
    expect(signIns.at(-1)?.details).toMatchObject({
      method: 'company',
      subject: emp.sub,
      providerEmail: SEEDED.designDev,
    });
  });

  it("gives an unlinked identity carrying a colleague's address only a link offer: no session, the colleague untouched", async () => {
    const impostor = newEmployee({ email: SEEDED.designTest });
    const before = (await adminUsers()).find((u) => u.email === SEEDED.designTest)!;
    const r = await companySignIn(impostor.email);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ outcome: 'LINK_REQUIRED', email: SEEDED.designTest });
    expect(r.body.token).toBeUndefined();
    // without the colleague's password the link is refused (403) and counted as a failed sign-in
    const wrong = await api('/company-sign-on/link', {
      method: 'POST',
      body: { linkTicket: r.body.linkTicket, password: 'not-the-password-1' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errorMessage).toMatch(/portal password is not right/);
    const after = (await adminUsers()).find((u) => u.email === SEEDED.designTest)!;
    expect(after).toEqual(before);
  });

  it('refuses a replayed answer (the state is single use) and changes nothing', async () => {
    const emp = newEmployee();
    const started = await startSignOn();
    const search = await atCompany(started, emp.email);
    expect((await callback(search, started.binding)).status).toBe(200);
    const before = await snapshot();
    const replay = await callback(search, started.binding);
    expect(replay.status).toBe(400);
    expect(replay.body.errorMessage).toMatch(/already used or has expired/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a used code brought back under a new sign-in (the provider refuses it) and changes nothing', async () => {
    const emp = newEmployee();
    const first = await startSignOn();
    const search = await atCompany(first, emp.email);
    expect((await callback(search, first.binding)).status).toBe(200);
    const second = await startSignOn();
    const code = new URLSearchParams(search).get('code')!;
    const iss = new URLSearchParams(search).get('iss')!;
    const before = await snapshot();
    const replay = await callback(
      `?${new URLSearchParams({ code, state: stateOf(second.authorizationUrl), iss })}`,
      second.binding,
    );
    expect(replay.status).toBe(400);
    expect(replay.body.errorMessage).toMatch(/did not accept the sign-in code/);
    // the second sign-in was spent by the refusal: the snapshot differs only by it being gone
    const now = await snapshot();
    expect(now['table audit']).toBe(before['table audit']);
    expect(Number.parseInt(now['table users']!, 10)).toBe(Number.parseInt(before['table users']!, 10) - 1);
  });

  it('refuses an answer brought to another browser window (its binding) and signs nobody in', async () => {
    const emp = newEmployee();
    const victim = await startSignOn();
    const attacker = await startSignOn();
    const search = await atCompany(victim, emp.email);
    const r = await callback(search, attacker.binding);
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toMatch(/another browser window/);
    expect((await adminUsers()).some((u) => u.email === emp.email)).toBe(false);
  });

  it("refuses an ID token whose nonce is not the sign-in's", async () => {
    const emp = newEmployee();
    const before = await snapshot();
    const started = await startSignOn();
    // the sign-in now expects another nonce than the one the provider puts in the token
    const ddb = await localDynamo();
    const stateHash = createHash('sha256').update(stateOf(started.authorizationUrl)).digest('hex');
    await ddb.send(
      new UpdateCommand({
        TableName: localTable('users'),
        Key: { pk: `SIGNON#${stateHash}` },
        UpdateExpression: 'SET nonce = :n',
        ExpressionAttributeValues: { ':n': 'a-nonce-this-sign-in-never-sent-to-the-provider' },
      }),
    );
    const search = await atCompany(started, emp.email);
    const r = await callback(search, started.binding);
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toMatch(/could not be verified/);
    expect(await snapshot()).toEqual(before);
    expect((await adminUsers()).some((u) => u.email === emp.email)).toBe(false);
  });

  describe('an answer of another issuer', () => {
    let other: CompanyIdp;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'frp-other-idp-'));
      // another company's provider that registered the portal's client id and redirect address
      other = await startCompanyIdp({
        port: await freePort(),
        dir,
        redirectUris: [callbackPrefix()],
        companyName: 'Another Company',
      });
    });
    afterAll(async () => {
      await other?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses it (mix-up), with its iss parameter and without, and changes nothing', async () => {
      const attempt = async (stripIss: boolean) => {
        const started = await startSignOn();
        const url = new URL(started.authorizationUrl);
        const foreign = new URL(`${other.issuer}${url.pathname}${url.search}`).href;
        const r = await new CompanyBrowser().signIn(
          foreign,
          callbackPrefix(),
          'nina.new@example.com',
          COMPANY_PASSWORD,
        );
        if (!('search' in r)) throw new Error('the other provider did not answer');
        const params = new URLSearchParams(r.search);
        expect(params.get('iss')).toBe(other.issuer);
        if (stripIss) params.delete('iss');
        const before = await snapshot();
        const res = await callback(`?${params}`, started.binding);
        const after = await snapshot();
        expect(after['table audit']).toBe(before['table audit']);
        return res;
      };
      const withIss = await attempt(false);
      expect(withIss.status).toBe(400);
      expect(withIss.body.errorMessage).toMatch(/could not be verified/);
      const withoutIss = await attempt(true);
      expect(withoutIss.status).toBe(400);
    });
  });

  it('refuses an address the company has not verified, and one outside the allowed domains (403), making no account', async () => {
    const unverified = newEmployee({ email_verified: false });
    const outside = newEmployee({ email: `someone-${Date.now()}@outside-contractor.net` });
    const before = await snapshot();
    const a = await companySignIn(unverified.email);
    expect(a.status).toBe(403);
    expect(a.body.errorMessage).toMatch(/has not verified your email address/);
    const b = await companySignIn(outside.email);
    expect(b.status).toBe(403);
    expect(b.body.errorMessage).toMatch(/Addresses of outside-contractor\.net cannot sign in/);
    expect(await snapshot()).toEqual(before);
  });

  it('lets no leaver in: the provider refuses a disabled identity, even one holding a session there', async () => {
    // the seeded leaver
    const seeded = await new CompanyBrowser().signIn(
      (await startSignOn()).authorizationUrl,
      callbackPrefix(),
      'lee.leaver@example.com',
      COMPANY_PASSWORD,
    );
    expect('page' in seeded && seeded.page).toMatch(/This account is disabled/);
    // an employee who signed in before (the provider keeps a session in this browser), then left
    const emp = newEmployee();
    const browser = new CompanyBrowser();
    expect((await companySignIn(emp.email, browser)).status).toBe(200);
    updateCompanyAccount(inject('dataDir'), emp.sub, { disabled: true });
    const again = await browser.signIn(
      (await startSignOn()).authorizationUrl,
      callbackPrefix(),
      emp.email,
      COMPANY_PASSWORD,
    );
    expect('search' in again).toBe(false);
    expect('page' in again && again.page).toMatch(/This account is disabled/);
  });

  it('links an existing account only with its portal password; then the identity signs in as it', async () => {
    const r = await companySignIn('technical-leader@example.com');
    expect(r.body.outcome).toBe('LINK_REQUIRED');
    const linked = await api<{ outcome: string; token: string; user: string }>('/company-sign-on/link', {
      method: 'POST',
      body: { linkTicket: r.body.linkTicket, password: 'Local-Dev-1234' },
    });
    expect(linked.status).toBe(200);
    const user = jsonText<PublicUser>(linked.body.user);
    expect(user).toMatchObject({ email: SEEDED.lead, userRole: 'TECHNICAL_LEADER', roleStatus: 'GRANTED' });
    expect(user.companyIdentity).toMatchObject({ subject: 'emp-1002', linkedBy: 'PASSWORD' });
    expect(user.passwordless).toBeUndefined();
    // the offer is spent
    const again = await api('/company-sign-on/link', {
      method: 'POST',
      body: { linkTicket: r.body.linkTicket, password: 'Local-Dev-1234' },
    });
    expect(again.status).toBe(400);
    const next = await companySignIn('technical-leader@example.com');
    expect(next.body.outcome).toBe('SIGNED_IN');
    expect(jsonText<PublicUser>(next.body.user).id).toBe(user.id);
    const actions = (await userEvents(user.id)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['COMPANY_LINK_OFFERED', 'COMPANY_IDENTITY_LINKED', 'SIGNED_IN']),
    );
  });

  it('two admins link on request: one proposes, the same one cannot confirm, a second one does', async () => {
    const reg = await api<{ user: string }>('/user/register', {
      method: 'POST',
      body: {
        name: 'Pat Portal',
        email: `pat-${Date.now()}@example.com`,
        password: 'Pat-Portal-1234',
        userRole: 'TECHNICAL_LEADER',
      },
    });
    expect(reg.status).toBe(201);
    const pat = jsonText<PublicUser>(reg.body.user);
    const { confirmByMail } = await import('../support/identity');
    await confirmByMail(pat.email, 'Pat-Portal-1234');
    const emp = newEmployee({ email: pat.email });
    const offer = await companySignIn(emp.email);
    expect(offer.body.outcome).toBe('LINK_REQUIRED');
    const asked = await api('/company-sign-on/link-request', {
      method: 'POST',
      body: { linkTicket: offer.body.linkTicket },
    });
    expect(asked.status).toBe(200);
    const listed = (await adminUsers()).find((u) => u.id === pat.id)!;
    expect(listed.companyLinkRequest).toMatchObject({ email: pat.email, subject: emp.sub });

    const admin1 = await login(SEEDED.admin);
    const decide = (token: string, body: Record<string, unknown>) =>
      api<{ outcomes: Record<string, string> }>('/admin/users/company-links', {
        method: 'POST',
        token,
        body,
      });
    expect((await decide(admin1, { ids: [pat.id], decision: 'LINK' })).status).toBe(400); // unsigned
    const proposed = await decide(admin1, { ids: [pat.id], decision: 'LINK', password: 'Local-Dev-1234' });
    expect(proposed.body.outcomes[pat.id]).toBe('PROPOSED');
    const own = await decide(admin1, { ids: [pat.id], decision: 'LINK', password: 'Local-Dev-1234' });
    expect(own.status).toBe(403);
    const confirmed = await decide(await login(SEEDED_ADMIN_2), {
      ids: [pat.id],
      decision: 'LINK',
      password: 'Local-Dev-1234',
    });
    expect(confirmed.body.outcomes[pat.id]).toBe('LINKED');
    const signedIn = await companySignIn(emp.email);
    expect(signedIn.body.outcome).toBe('SIGNED_IN');
    expect(jsonText<PublicUser>(signedIn.body.user)).toMatchObject({
      id: pat.id,
      companyIdentity: { linkedBy: 'ADMINS' },
    });
    const actions = (await userEvents(pat.id)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['COMPANY_LINK_REQUESTED', 'COMPANY_LINK_PROPOSED', 'COMPANY_LINK_CONFIRMED']),
    );
  });

  it('a fresh company sign-in (prompt=login) gives a one-time ticket confirming a signature of its user only', async () => {
    // the second admin links a company identity with the password, then confirms with a fresh sign-in
    const adminEmp = newEmployee({ email: SEEDED_ADMIN_2 });
    const offer = await companySignIn(adminEmp.email);
    const linked = await api<{ token: string }>('/company-sign-on/link', {
      method: 'POST',
      body: { linkTicket: offer.body.linkTicket, password: 'Local-Dev-1234' },
    });
    expect(linked.status).toBe(200);
    const token = linked.body.token;
    // each sign-in in its own browser: a browser runs the provider's script that ends the previous person's
    // session there, which this HTTP client does not
    const browser = () => new CompanyBrowser();
    const reauth = await startSignOn(token);
    expect(new URL(reauth.authorizationUrl).searchParams.get('prompt')).toBe('login');
    expect(new URL(reauth.authorizationUrl).searchParams.get('max_age')).toBe('300');
    // another person at the company cannot confirm for this admin
    const stranger = newEmployee();
    const foreign = await callback(
      await atCompany(reauth, stranger.email, COMPANY_PASSWORD, browser()),
      reauth.binding,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorMessage).toMatch(/as someone else/);

    const fresh = await startSignOn(token);
    const ticket = await callback(
      await atCompany(fresh, adminEmp.email, COMPANY_PASSWORD, browser()),
      fresh.binding,
    );
    expect(ticket.status).toBe(200);
    expect(ticket.body.outcome).toBe('REAUTHENTICATED');
    const reauthTicket = ticket.body.reauthTicket!;

    // the ticket signs one decision of its own user only: here an admin's unlink of a linked account
    const emp = newEmployee();
    const target = jsonText<PublicUser>((await companySignIn(emp.email)).body.user);
    const other = await api('/admin/users/company-links', {
      method: 'POST',
      token: await login(SEEDED.admin),
      body: { ids: [target.id], decision: 'UNLINK', reauthTicket },
    });
    expect(other.status).toBe(403); // another admin's ticket
    const fresh2 = await startSignOn(token);
    const ticket2 = (
      await callback(await atCompany(fresh2, adminEmp.email, COMPANY_PASSWORD, browser()), fresh2.binding)
    ).body.reauthTicket!;
    const unlinked = await api<{ outcomes: Record<string, string> }>('/admin/users/company-links', {
      method: 'POST',
      token,
      body: { ids: [target.id], decision: 'UNLINK', reauthTicket: ticket2 },
    });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.outcomes[target.id]).toBe('UNLINKED');
    const reused = await api('/admin/users/company-links', {
      method: 'POST',
      token,
      body: { ids: [target.id], decision: 'UNLINK', reauthTicket: ticket2 },
    });
    expect(reused.status).toBe(409); // nothing linked any more; a linked one would be 403 (ticket spent)
  });
});
