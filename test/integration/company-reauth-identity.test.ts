import { describe, expect, it } from 'vitest';
import { COMPANY_PASSWORD } from '../../infra/local/company-idp';
import type { PublicUser } from '../../shared/api/contracts/user';
import { COMPANY_ERR } from '../../shared/domain/company-sign-on';
import { SIGNATURE_PASSWORD_WRONG } from '../../shared/domain/signature-meanings';
import { api, jsonText } from '../support/api';
import { CompanyBrowser } from '../support/company-idp';
import { atCompany, callback, companySignIn, newEmployee, startSignOn } from '../support/company-sign-on';
import { grantRoles } from '../support/identity';

/**
 * A person a company identity signs in as, without a portal password, confirms a change of their own
 * passkeys with a fresh company sign-in (decision 368): the ticket works once, for its own user only; a
 * password is refused as a wrong one (there is none), and nothing is started by a refused proof.
 */

/** A fresh sign-in at the company for the session `token` of `email`: the one-time ticket. */
async function ticketFor(token: string, email: string): Promise<string> {
  const started = await startSignOn(token);
  const r = await callback(
    await atCompany(started, email, COMPANY_PASSWORD, new CompanyBrowser()),
    started.binding,
  );
  expect(r.status).toBe(200);
  return r.body.reauthTicket!;
}

/**
 * A company employee's first sign-in, a role asked for and granted by two admins (a fresh company sign-in
 * starts only for a granted role): a session of the account, which has no portal password.
 */
async function grantedEmployee() {
  const who = newEmployee();
  const first = await companySignIn(who.email);
  expect(first.body.outcome).toBe('SIGNED_IN');
  const user = jsonText<PublicUser>(first.body.user);
  expect(user.passwordless).toBe(true);
  const asked = await api('/user/account', {
    method: 'POST',
    token: first.body.token!,
    body: { name: user.name, email: user.email, userRole: 'TECHNICAL_LEADER' },
  });
  expect(asked.status).toBe(200);
  await grantRoles([user.id]);
  return { email: who.email, token: (await companySignIn(who.email)).body.token! };
}

const registrationOptions = (token: string, proof: Record<string, string>) =>
  api<{ ceremonyId?: string; errorMessage?: string }>('/passkeys/registration-options', {
    method: 'POST',
    token,
    body: proof,
  });

describe('adding a passkey with a fresh company sign-in (decision 368)', () => {
  it('a company-only person starts adding a passkey with a ticket, once; a password or another’s ticket is refused', async () => {
    const cora = await grantedEmployee();
    const token = cora.token;

    // no portal password: whatever is typed is wrong, and nothing starts
    const typed = await registrationOptions(token, { password: 'anything-at-all-1' });
    expect(typed.status).toBe(403);
    expect(typed.body.errorMessage).toBe(SIGNATURE_PASSWORD_WRONG);

    // another person's ticket confirms nothing for Cora
    const dan = await grantedEmployee();
    const foreign = await registrationOptions(token, { reauthTicket: await ticketFor(dan.token, dan.email) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorMessage).toBe(COMPANY_ERR.ticketInvalid);

    const reauthTicket = await ticketFor(token, cora.email);
    const started = await registrationOptions(token, { reauthTicket });
    expect(started.status).toBe(200);
    expect(started.body.ceremonyId).toEqual(expect.any(String));
    const again = await registrationOptions(token, { reauthTicket });
    expect(again.status).toBe(403);
    expect(again.body.errorMessage).toBe(COMPANY_ERR.ticketInvalid);
  });
});
