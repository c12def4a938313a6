import { COMPANY_ERR, COMPANY_MSG } from '../../../shared/domain/company-sign-on';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { emailConfirmedOf } from '../../../shared/domain/identity';
import type { AuditEvent } from '../../ports/audit-log';
import type { CompanyLink, LinkOffer } from '../../ports/company-identity-store';
import type { UserRecord } from '../../ports/user-repository';
import { verifyPassword } from '../password-hasher';
import { mustUpdate, userEvent } from '../users/common';
import {
  completeSignIn,
  forgiveSource,
  recordSignInFailure,
  refuseWhileThrottled,
  signInEvent,
  type VerifiedFirstFactor,
} from '../users/sign-in';
import { type CallbackResult, signedInOutcome } from './callback';
import { type CompanySignOnDeps, hashOf } from './deps';

/**
 * Linking a company identity to an account whose address it signed in with (decision 315): only the
 * account's owner, with the portal password (throttled as sign-in), or two admins on the owner's request.
 */

async function liveOffer(
  d: CompanySignOnDeps,
  linkTicket: string,
): Promise<{ offer: LinkOffer; user: UserRecord }> {
  const offer = await d.identities.getLinkOffer(hashOf(linkTicket));
  if (!offer || Date.parse(offer.expiresAt) <= d.clock.now().getTime())
    throw new BadRequestError(COMPANY_ERR.linkUnknown);
  const user = await d.users.getById(offer.userId);
  if (!user) throw new BadRequestError(COMPANY_ERR.linkUnknown);
  if (user.companyIdentity) throw new ConflictError(COMPANY_ERR.alreadyLinked);
  return { offer, user };
}

/** The owner confirms with the portal password: the identity is linked and the account signs in. */
export async function linkWithPassword(
  d: CompanySignOnDeps,
  linkTicket: string,
  password: string,
  sourceIp: string,
): Promise<CallbackResult> {
  const { offer, user } = await liveOffer(d, linkTicket);
  const failures = await refuseWhileThrottled(d, user.email, sourceIp, d.clock.now());
  // '' (no portal password) never verifies
  if (user.passwordHash === '' || !(await verifyPassword(password, user.passwordHash))) {
    await recordSignInFailure(d, user.email, sourceIp);
    throw new ForbiddenError(COMPANY_ERR.linkPasswordWrong);
  }
  if (failures > 0) await forgiveSource(d, user.email, sourceIp);
  if (!emailConfirmedOf(user)) throw new ForbiddenError(COMPANY_ERR.unconfirmedAccount);
  if (!(await d.identities.takeLinkOffer(offer.ticketHash)))
    throw new BadRequestError(COMPANY_ERR.linkUnknown);
  const factor: VerifiedFirstFactor = {
    user,
    method: 'company',
    tokenVersion: user.tokenVersion,
    mustChangePassword: user.mustChangePassword === true,
    sourceIp,
    audit: {
      action: 'COMPANY_IDENTITY_LINKED',
      meaning: 'links their company identity to this account with the portal password, and signs in with it',
      details: {
        issuer: offer.issuer,
        subject: offer.subject,
        providerEmail: offer.email,
        linkedBy: 'PASSWORD',
      },
    },
  };
  // the link and the sign-in's event commit together (decision 283)
  const next = await linkAccount(d, user, offer, 'PASSWORD', [signInEvent(factor)]);
  const session = await completeSignIn(d, { ...factor, user: next, recorded: true });
  return signedInOutcome(session);
}

/** Links `offer`'s identity to `user` in one transaction (the link item and the account). */
async function linkAccount(
  d: CompanySignOnDeps,
  user: UserRecord,
  offer: Pick<LinkOffer, 'issuer' | 'subject' | 'email'>,
  linkedBy: CompanyLink['linkedBy'],
  events: readonly AuditEvent[],
): Promise<UserRecord> {
  const at = d.clock.now().toISOString();
  const { companyLinkRequest: _done, ...rest } = user;
  const next: UserRecord = {
    ...rest,
    companyIdentity: {
      issuer: offer.issuer,
      subject: offer.subject,
      email: offer.email,
      linkedAt: at,
      linkedBy,
    },
    updatedAt: at,
    version: user.version + 1,
  };
  const result = await d.identities.link(
    { issuer: offer.issuer, subject: offer.subject, userId: user.id, linkedAt: at, linkedBy },
    next,
    user.version,
    { events },
  );
  if (result === 'identityTaken') throw new ConflictError(COMPANY_ERR.identityTaken);
  if (result === 'conflict') throw new ConflictError('The account was changed meanwhile; try again');
  return next;
}

/** The owner does not know the password (or has none): two admins decide the link instead. */
export async function requestLink(d: CompanySignOnDeps, linkTicket: string): Promise<{ message: string }> {
  const { offer, user } = await liveOffer(d, linkTicket);
  if (!(await d.identities.takeLinkOffer(offer.ticketHash)))
    throw new BadRequestError(COMPANY_ERR.linkUnknown);
  const at = d.clock.now().toISOString();
  const next: UserRecord = {
    ...user,
    companyLinkRequest: { issuer: offer.issuer, subject: offer.subject, email: offer.email, requestedAt: at },
    updatedAt: at,
    version: user.version + 1,
  };
  await mustUpdate(d, next, user, {
    events: [
      userEvent(
        user,
        'COMPANY_LINK_REQUESTED',
        'a company identity with this address asks to be linked to the account; two administrators decide',
        { issuer: offer.issuer, subject: offer.subject, providerEmail: offer.email },
      ),
    ],
  });
  return { message: COMPANY_MSG.linkRequested };
}

export { linkAccount };
