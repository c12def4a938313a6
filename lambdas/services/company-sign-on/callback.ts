import { assertNever } from '../../../shared/domain/assert-never';
import {
  COMPANY_ERR,
  checkCompanyClaims,
  LINK_OFFER_SECONDS,
  REAUTH_MAX_AGE_SECONDS,
} from '../../../shared/domain/company-sign-on';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  ServiceUnavailableError,
} from '../../../shared/domain/errors';
import { registrationExpired } from '../../../shared/domain/identity';
import { logger } from '../../observability/logger';
import type { CompanyLink, SignOnTransaction } from '../../ports/company-identity-store';
import { IdentityProviderError, type VerifiedIdentity } from '../../ports/identity-provider';
import type { UserRecord } from '../../ports/user-repository';
import { newUserRecord, userEvent } from '../users/common';
import {
  completeSignIn,
  recordSourceFailure,
  refuseSourceWhileThrottled,
  type SecondFactorPending,
  type SessionResult,
  type SignInResult,
  signInEvent,
  type VerifiedFirstFactor,
} from '../users/sign-in';
import { after, type CompanySignOnDeps, hashOf, matchesHash, newSecret } from './deps';
import { issueReauthTicket } from './reauth-ticket';

/** What the provider's answer leads to: a session, an offer to link an existing account, or a signature's proof. */
export type CallbackResult =
  | ({ outcome: 'SIGNED_IN' } & SessionResult)
  | ({ outcome: 'SECOND_FACTOR' } & SecondFactorPending)
  | { outcome: 'LINK_REQUIRED'; linkTicket: string; email: string; expiresAt: string }
  | { outcome: 'REAUTHENTICATED'; reauthTicket: string; expiresAt: string };

/** A sign-in's end as the callback answers it: the session, or the passkey step the account owes. */
export const signedInOutcome = (r: SignInResult): CallbackResult =>
  'secondFactor' in r ? { outcome: 'SECOND_FACTOR', ...r } : { outcome: 'SIGNED_IN', ...r };

/**
 * An account made by a first company sign-in holds this role until its owner asks for one (roleStatus
 * NONE: no authority, nobody sees it; decision 316).
 */
const PLACEHOLDER_ROLE = 'DESIGN_ENGINEER_DEV' as const;

/**
 * The browser came back from the provider with `search` (its query string) and the binding secret of the
 * window that started (decision 315). The sign-in is taken (single use) before anything else, so a
 * replayed answer finds nothing; the library then checks the answer, the code exchange and the ID token;
 * the portal checks the email claims; the provider's issuer and subject — never the email — find the
 * account. Every refusal is a 4xx that changes nothing but the source's failure count.
 */
export async function companyCallback(
  d: CompanySignOnDeps,
  search: string,
  binding: string,
  sourceIp: string,
): Promise<CallbackResult> {
  await refuseSourceWhileThrottled(d, sourceIp, d.clock.now());
  try {
    const tx = await takeSignOn(d, search, binding);
    const id = await verify(d, tx, search);
    const check = checkCompanyClaims(id.claims, d.company.name, d.company.allowedEmailDomains);
    if (!check.ok) throw new ForbiddenError(check.message, { companyRefusal: check.reason });
    if (tx.purpose === 'REAUTH') return await reauthenticated(d, tx, id);
    const link = await d.identities.getLink(id.issuer, id.subject);
    if (link) return await signInLinked(d, link, id, check.email, sourceIp);
    return await firstSignIn(d, id, check, sourceIp);
  } catch (e) {
    // a refused answer counts against its source like a wrong password (throttles as for passwords)
    if (e instanceof AppError && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429)
      await recordSourceFailure(d, sourceIp);
    throw e;
  }
}

async function takeSignOn(d: CompanySignOnDeps, search: string, binding: string): Promise<SignOnTransaction> {
  const state = new URLSearchParams(search).get('state');
  if (!state) throw new BadRequestError(COMPANY_ERR.noState);
  const tx = await d.identities.takeTransaction(hashOf(state));
  if (!tx || Date.parse(tx.expiresAt) <= d.clock.now().getTime())
    throw new BadRequestError(COMPANY_ERR.flowUnknown);
  if (!matchesHash(binding, tx.bindingHash)) throw new BadRequestError(COMPANY_ERR.otherBrowser);
  return tx;
}

async function verify(
  d: CompanySignOnDeps,
  tx: SignOnTransaction,
  search: string,
): Promise<VerifiedIdentity> {
  const state = new URLSearchParams(search).get('state') ?? '';
  try {
    return await d.idp.verifyCallback({
      search,
      expectedState: state,
      expectedNonce: tx.nonce,
      codeVerifier: tx.codeVerifier,
      ...(tx.purpose === 'REAUTH' ? { maxAgeSeconds: REAUTH_MAX_AGE_SECONDS } : {}),
    });
  } catch (e) {
    if (!(e instanceof IdentityProviderError)) throw e;
    const company = d.company.name;
    const r = e.refusal;
    logger().warn('company sign-on answer refused', { kind: r.kind, reason: e.message });
    switch (r.kind) {
      case 'PROVIDER_ERROR':
        throw new ForbiddenError(COMPANY_ERR.idpError(company, r.error));
      case 'CODE_REFUSED':
        throw new BadRequestError(COMPANY_ERR.codeRefused(company));
      case 'INVALID_ANSWER':
        throw new BadRequestError(COMPANY_ERR.answerInvalid(company));
      case 'UNREACHABLE':
        throw new ServiceUnavailableError(COMPANY_ERR.providerDown(company));
      default:
        return assertNever(r);
    }
  }
}

/** A known company identity: its account signs in, whatever address the provider says today. */
async function signInLinked(
  d: CompanySignOnDeps,
  link: CompanyLink,
  id: VerifiedIdentity,
  idpEmail: string,
  sourceIp: string,
): Promise<CallbackResult> {
  const user = await d.users.getById(link.userId);
  if (!user) throw new ForbiddenError(COMPANY_ERR.accountGone);
  const session = await completeSignIn(d, {
    user,
    method: 'company',
    tokenVersion: user.tokenVersion,
    mustChangePassword: user.mustChangePassword === true,
    sourceIp,
    // an address the provider changed is recorded, never followed: the account keeps its own
    audit: { details: { issuer: id.issuer, subject: id.subject, providerEmail: idpEmail } },
  });
  return signedInOutcome(session);
}

/**
 * An identity the portal has not seen: a new account without a role, waiting for the role request and the
 * two admins' grant as a registration does — unless its address is an account's already, which is linked
 * only by that account's password or by two admins (never by the address alone).
 */
async function firstSignIn(
  d: CompanySignOnDeps,
  id: VerifiedIdentity,
  who: { email: string; name: string },
  sourceIp: string,
): Promise<CallbackResult> {
  const now = d.clock.now();
  const found = await d.users.getByEmail(who.email);
  const holder = found && !registrationExpired(found, now) ? found : null;
  if (holder) {
    const linkTicket = newSecret();
    const expiresAt = after(now, LINK_OFFER_SECONDS);
    // the offer and its event commit together (decision 283)
    await d.identities.putLinkOffer(
      {
        ticketHash: hashOf(linkTicket),
        userId: holder.id,
        issuer: id.issuer,
        subject: id.subject,
        email: who.email,
        createdAt: now.toISOString(),
        expiresAt,
      },
      {
        events: [
          userEvent(
            holder,
            'COMPANY_LINK_OFFERED',
            'a company identity with this address signed in; it is linked only with this account’s password or by two administrators',
            { issuer: id.issuer, subject: id.subject, providerEmail: who.email },
          ),
        ],
      },
    );
    return { outcome: 'LINK_REQUIRED', linkTicket, email: holder.email, expiresAt };
  }
  const at = now.toISOString();
  const user: UserRecord = {
    ...newUserRecord(
      {
        name: who.name,
        email: who.email,
        userRole: PLACEHOLDER_ROLE,
        passwordHash: '',
        // the provider verified the address (email_verified), which is what the mailed link proves
        emailConfirmed: true,
        roleStatus: 'NONE',
      },
      at,
    ),
    companyIdentity: {
      issuer: id.issuer,
      subject: id.subject,
      email: who.email,
      linkedAt: at,
      linkedBy: 'FIRST_SIGN_IN',
    },
  };
  const factor: VerifiedFirstFactor = {
    user,
    method: 'company',
    tokenVersion: user.tokenVersion,
    mustChangePassword: false,
    sourceIp,
    audit: {
      action: 'COMPANY_ACCOUNT_CREATED',
      meaning:
        'signs in with the company identity provider for the first time; the account holds no role until two administrators grant the one it asks for',
      details: { issuer: id.issuer, subject: id.subject, providerEmail: who.email },
    },
  };
  // the account, its link and the sign-in's event commit together (decision 283)
  const made = await d.identities.createLinkedAccount(
    user,
    { issuer: id.issuer, subject: id.subject, userId: user.id, linkedAt: at, linkedBy: 'FIRST_SIGN_IN' },
    { events: [signInEvent(factor)] },
  );
  if (made === 'emailTaken')
    throw new ConflictError(
      `${who.email} belonged to a deleted portal account and cannot be used again. Ask an administrator.`,
    );
  if (made === 'identityTaken') throw new ConflictError('You signed in twice at once. Sign in again.');
  const session = await completeSignIn(d, { ...factor, recorded: true });
  return signedInOutcome(session);
}

/** A signed-in user signed in again at the company, as themself and just now: a signature's proof. */
async function reauthenticated(
  d: CompanySignOnDeps,
  tx: SignOnTransaction,
  id: VerifiedIdentity,
): Promise<CallbackResult> {
  const company = d.company.name;
  const user = tx.userId ? await d.users.getById(tx.userId) : null;
  if (!user) throw new ForbiddenError(COMPANY_ERR.accountGone);
  const linked = user.companyIdentity;
  if (!linked) throw new ForbiddenError(COMPANY_ERR.reauthNotLinked(company));
  if (linked.issuer !== id.issuer || linked.subject !== id.subject)
    throw new ForbiddenError(COMPANY_ERR.reauthOtherIdentity(company));
  // prompt=login asked for the password again: the provider's auth_time must be after the start (5 s skew)
  if (id.authTime === undefined || id.authTime * 1000 < Date.parse(tx.createdAt) - 5000)
    throw new ForbiddenError(COMPANY_ERR.reauthNotFresh(company));
  const t = await issueReauthTicket(d, user, id);
  return { outcome: 'REAUTHENTICATED', ...t };
}
