import { describe, expect, it } from 'vitest';
import { MemoryCompanyIdentityStore } from '../../adapters/memory/company-identity-store';
import {
  type AuthorizationRequest,
  type CallbackChecks,
  type IdentityProvider,
  IdentityProviderError,
  type VerifiedIdentity,
} from '../../ports/identity-provider';
import { makeUsers, PASSWORD, SCRYPT_TIMEOUT_MS } from '../../testing/users.fixtures';
import { CompanySignOnService } from '../company-sign-on-service';
import { confirmReauthTicket } from './reauth-ticket';

/**
 * The rules of company sign-on over memory adapters, with a provider stand-in that does what the real
 * one's library checks do (the protocol itself is tested over HTTP against the local provider).
 */
class StandInProvider implements IdentityProvider {
  /** what the next answer's ID token says, per code */
  readonly codes = new Map<string, { identity: VerifiedIdentity; nonce: string }>();
  async issuer() {
    return 'https://idp.example';
  }
  async authorizationUrl(req: AuthorizationRequest) {
    return `https://idp.example/auth?state=${req.state}&nonce=${req.nonce}${req.reauth ? '&prompt=login' : ''}`;
  }
  async verifyCallback(c: CallbackChecks) {
    const code = new URLSearchParams(c.search).get('code') ?? '';
    const issued = this.codes.get(code);
    this.codes.delete(code); // a code works once
    if (!issued) throw new IdentityProviderError({ kind: 'CODE_REFUSED' });
    if (issued.nonce !== c.expectedNonce)
      throw new IdentityProviderError({ kind: 'INVALID_ANSWER', detail: 'nonce' });
    return issued.identity;
  }
}

function setup() {
  const kit = makeUsers();
  const idp = new StandInProvider();
  const identities = new MemoryCompanyIdentityStore(kit.users);
  const deps = {
    users: kit.users,
    tokens: kit.tokens,
    mailer: kit.mailer,
    audit: kit.audit,
    clock: kit.clock,
    config: {
      tempPasswordMinutes: 30,
      maxFailuresPerSource: 50,
      appUrl: 'https://portal.example',
      allowedEmailDomains: [],
    },
  };
  const service = new CompanySignOnService(deps, identities, idp, {
    name: 'ACME',
    allowedEmailDomains: ['medical.example'],
    startLimit: { perSource: 100, windowSeconds: 900 },
  });
  let n = 0;
  /** a person signs in at the provider as `who` from a sign-in the portal started */
  async function signIn(
    who: { sub: string; email: string; verified?: boolean },
    opts: { user?: Parameters<typeof service.start>[1] } = {},
  ) {
    const started = await service.start('198.51.100.7', opts.user);
    const u = new URL(started.authorizationUrl);
    const code = `code-${++n}`;
    idp.codes.set(code, {
      nonce: u.searchParams.get('nonce')!,
      identity: {
        issuer: 'https://idp.example',
        subject: who.sub,
        authTime: Math.floor(kit.clock.now().getTime() / 1000),
        claims: {
          sub: who.sub,
          email: who.email,
          email_verified: who.verified ?? true,
          name: `Name of ${who.sub}`,
        },
      },
    });
    const search = `?code=${code}&state=${u.searchParams.get('state')}`;
    return { started, search, answer: () => service.callback(search, started.binding, '198.51.100.7') };
  }
  return { ...kit, idp, identities, service, signIn };
}

describe('company sign-on rules', () => {
  it('makes a new identity an account without a role and finds it again by subject, whatever its address', async () => {
    const t = setup();
    const first = await (await t.signIn({ sub: 'e1', email: 'nina@medical.example' })).answer();
    expect(first.outcome).toBe('SIGNED_IN');
    if (first.outcome !== 'SIGNED_IN') return;
    expect(first.user).toMatchObject({
      roleStatus: 'NONE',
      passwordless: true,
      email: 'nina@medical.example',
    });
    const again = await (await t.signIn({ sub: 'e1', email: 'renamed@medical.example' })).answer();
    expect(again.outcome === 'SIGNED_IN' && again.user.id).toBe(first.user.id);
    expect(again.outcome === 'SIGNED_IN' && again.user.email).toBe('nina@medical.example');
    expect(t.audit.actions()).toEqual(['COMPANY_ACCOUNT_CREATED', 'SIGNED_IN']);
  });

  it('refuses a replayed answer and one brought to another window, and writes nothing', async () => {
    const t = setup();
    const a = await t.signIn({ sub: 'e2', email: 'x@medical.example' });
    await a.answer();
    await expect(a.answer()).rejects.toMatchObject({ statusCode: 400 });
    const b = await t.signIn({ sub: 'e3', email: 'y@medical.example' });
    const other = await t.service.start('198.51.100.7');
    await expect(t.service.callback(b.search, other.binding, '198.51.100.7')).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/another browser window/),
    });
    expect(await t.users.getByEmail('y@medical.example')).toBeNull();
  });

  it('offers a link, never a session, for an address an account holds; the password links it', {
    timeout: SCRYPT_TIMEOUT_MS,
  }, async () => {
    const t = setup();
    const owner = await t.account('TECHNICAL_LEADER');
    const offer = await (await t.signIn({ sub: 'e4', email: owner.email })).answer();
    expect(offer.outcome).toBe('LINK_REQUIRED');
    if (offer.outcome !== 'LINK_REQUIRED') return;
    await expect(
      t.service.linkWithPassword(offer.linkTicket, 'Wrong-Password-1', '198.51.100.7'),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect((await t.current(owner)).companyIdentity).toBeUndefined();
    const linked = await t.service.linkWithPassword(offer.linkTicket, PASSWORD, '198.51.100.7');
    expect(linked.outcome === 'SIGNED_IN' && linked.user.id).toBe(owner.id);
    expect((await t.current(owner)).companyIdentity).toMatchObject({ subject: 'e4', linkedBy: 'PASSWORD' });
    await expect(
      t.service.linkWithPassword(offer.linkTicket, PASSWORD, '198.51.100.7'),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses an unverified address and a foreign domain with 403, making no account', async () => {
    const t = setup();
    await expect(
      (await t.signIn({ sub: 'e5', email: 'u@medical.example', verified: false })).answer(),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(
      (await t.signIn({ sub: 'e6', email: 'o@elsewhere.example' })).answer(),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect(await t.users.list()).toEqual([]);
  });

  it('gives a fresh sign-in of the linked identity a ticket its own user spends once', async () => {
    const t = setup();
    const made = await (await t.signIn({ sub: 'e7', email: 'r@medical.example' })).answer();
    if (made.outcome !== 'SIGNED_IN') throw new Error('no session');
    const user = (await t.users.getById(made.user.id))!;
    const r = await (await t.signIn({ sub: 'e7', email: 'r@medical.example' }, { user })).answer();
    expect(r.outcome).toBe('REAUTHENTICATED');
    if (r.outcome !== 'REAUTHENTICATED') return;
    const someoneElse = await t.account('ADMIN');
    await expect(confirmReauthTicket(t, someoneElse, r.reauthTicket)).rejects.toMatchObject({
      statusCode: 403,
    });
    // the other user's attempt spent it
    await expect(confirmReauthTicket(t, user, r.reauthTicket)).rejects.toMatchObject({ statusCode: 403 });
    const fresh = await (await t.signIn({ sub: 'e7', email: 'r@medical.example' }, { user })).answer();
    if (fresh.outcome !== 'REAUTHENTICATED') throw new Error('no ticket');
    await expect(confirmReauthTicket(t, user, fresh.reauthTicket)).resolves.toBeUndefined();
    await expect(confirmReauthTicket(t, user, fresh.reauthTicket)).rejects.toMatchObject({ statusCode: 403 });
    // another person at the company cannot confirm for this user
    await expect(
      (await t.signIn({ sub: 'e8', email: 's@medical.example' }, { user })).answer(),
    ).rejects.toMatchObject({ statusCode: 403 });
  });
});
