import { COMPANY_ERR, REAUTH_TICKET_SECONDS } from '../../../shared/domain/company-sign-on';
import { ForbiddenError } from '../../../shared/domain/errors';
import type { Clock } from '../../ports/clock';
import type { CompanyIdentityStore } from '../../ports/company-identity-store';
import type { VerifiedIdentity } from '../../ports/identity-provider';
import type { UserRecord } from '../../ports/user-repository';
import { userEvent } from '../users/common';
import { after, type CompanySignOnDeps, hashOf, newSecret } from './deps';

/**
 * The one-time proof of a fresh sign-in at the company (prompt=login, max_age), which a signature of a
 * user without a portal password carries instead of the password (decision 318): single use, five
 * minutes, bound to the user and to the company identity it was made for.
 */
export async function issueReauthTicket(
  d: CompanySignOnDeps,
  user: UserRecord,
  id: VerifiedIdentity,
): Promise<{ reauthTicket: string; expiresAt: string }> {
  const now = d.clock.now();
  const reauthTicket = newSecret();
  const expiresAt = after(now, REAUTH_TICKET_SECONDS);
  // the ticket and its event commit together (decision 283)
  await d.identities.putReauthTicket(
    {
      ticketHash: hashOf(reauthTicket),
      userId: user.id,
      issuer: id.issuer,
      subject: id.subject,
      authTime: new Date((id.authTime ?? now.getTime() / 1000) * 1000).toISOString(),
      createdAt: now.toISOString(),
      expiresAt,
    },
    {
      events: [
        userEvent(
          user,
          'COMPANY_REAUTHENTICATED',
          'signs in again at the company identity provider to confirm an electronic signature',
          { issuer: id.issuer, subject: id.subject },
        ),
      ],
    },
  );
  return { reauthTicket, expiresAt };
}

/** What checking a ticket needs: the store and the clock. */
export interface ReauthDeps {
  identities: Pick<CompanyIdentityStore, 'takeReauthTicket'>;
  clock: Clock;
}

/**
 * Spends a ticket for `user`'s signature: 403 when it is unknown, used, expired, another user's, or made
 * for a company identity the account no longer has. Taken before the checks, so it never works twice.
 */
export async function confirmReauthTicket(d: ReauthDeps, user: UserRecord, ticket: string): Promise<void> {
  const t = await d.identities.takeReauthTicket(hashOf(ticket));
  const linked = user.companyIdentity;
  if (
    !t ||
    t.userId !== user.id ||
    Date.parse(t.expiresAt) <= d.clock.now().getTime() ||
    !linked ||
    linked.issuer !== t.issuer ||
    linked.subject !== t.subject
  )
    throw new ForbiddenError(COMPANY_ERR.ticketInvalid);
}
