/**
 * Company sign-on (OpenID Connect) rules shared by the services and the web app: which company identities
 * the portal accepts, and the texts people read when it does not (docs/decisions/315-company-sign-on.md).
 * The person is identified by the identity provider's issuer and subject; the email only introduces them.
 */

/** How a company identity came to be linked to its portal account. */
export const LINKED_BY = ['FIRST_SIGN_IN', 'PASSWORD', 'ADMINS'] as const;
export type LinkedBy = (typeof LINKED_BY)[number];

/** The claims of a verified ID token the portal reads (the library checked signature, iss, aud, exp, nonce). */
export interface CompanyClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/** The domain of an address, lower case ('' for no address). */
export const emailDomainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** True when `email` is of one of `domains` (an empty list allows none: the stage must name them). */
export function companyDomainAllowed(email: string, domains: readonly string[]): boolean {
  const domain = emailDomainOf(email);
  return email.includes('@') && domains.some((d) => d.toLowerCase() === domain);
}

export type ClaimsCheck =
  | { ok: true; email: string; name: string }
  | { ok: false; reason: 'NO_EMAIL' | 'NOT_VERIFIED' | 'DOMAIN'; message: string };

/**
 * What the portal requires of a company identity beyond the token's own checks: an email the provider says
 * it verified (`email_verified` exactly true), of an allowed domain. The name falls back to the address.
 */
export function checkCompanyClaims(
  c: CompanyClaims,
  company: string,
  domains: readonly string[],
): ClaimsCheck {
  const email = typeof c.email === 'string' ? c.email.trim().toLowerCase() : '';
  if (!email || email.length > 254 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    return { ok: false, reason: 'NO_EMAIL', message: COMPANY_ERR.noEmail(company) };
  if (c.email_verified !== true)
    return { ok: false, reason: 'NOT_VERIFIED', message: COMPANY_ERR.notVerified(company) };
  if (!companyDomainAllowed(email, domains))
    return {
      ok: false,
      reason: 'DOMAIN',
      message: COMPANY_ERR.domainNotAllowed(company, emailDomainOf(email)),
    };
  // a name reaches mails and the audit trail: visible characters only, as the registration form requires
  const raw = typeof c.name === 'string' ? c.name : '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const name = raw.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return { ok: true, email, name: (name || email).slice(0, 100) };
}

/** Lifetimes (seconds): a sign-in at the provider, a link offer, a fresh sign-in's ticket for a signature. */
export const SIGN_ON_SECONDS = 10 * 60;
export const LINK_OFFER_SECONDS = 10 * 60;
export const REAUTH_TICKET_SECONDS = 5 * 60;
/** A fresh sign-in for a signature must have happened at the provider within this many seconds. */
export const REAUTH_MAX_AGE_SECONDS = 300;

/** What people read (errors are 4xx with these as `errorMessage`). */
export const COMPANY_ERR = {
  notConfigured: 'Company sign-on is not set up for this portal',
  flowUnknown:
    'This sign-in was already used or has expired. Start again with the company sign-on button on the sign-in page.',
  otherBrowser:
    'This sign-in was started in another browser window. Start again from the sign-in page of this window.',
  noState: 'The answer of the identity provider is incomplete. Start again from the sign-in page.',
  idpError: (company: string, what: string) =>
    `${company} did not sign you in (${what}). Start again, or ask your IT department.`,
  codeRefused: (company: string) =>
    `${company} did not accept the sign-in code: it was already used or belongs to another sign-in. Start again.`,
  answerInvalid: (company: string) =>
    `The answer of ${company} could not be verified, so nobody was signed in. Start again.`,
  providerDown: (company: string) => `${company} cannot be reached right now. Try again in a minute.`,
  noEmail: (company: string) =>
    `${company} did not tell the portal your email address. Ask your IT department to add it to your account.`,
  notVerified: (company: string) =>
    `${company} has not verified your email address, so the portal cannot know it is yours. Ask your IT department to verify it, then sign in again.`,
  domainNotAllowed: (company: string, domain: string) =>
    `Addresses of ${domain} cannot sign in to this portal with ${company}. Ask an administrator which addresses may.`,
  companyOnly: (company: string) =>
    `This portal accepts only company sign-on: use "Sign in with ${company}". Only the break-glass administrators sign in with a password.`,
  accountGone: 'The portal account of this company identity was deleted. Ask an administrator.',
  linkUnknown: 'This link offer was already used or has expired. Sign in with your company account again.',
  linkPasswordWrong:
    'The portal password is not right. Enter the password of the portal account shown, or ask the administrators to link it.',
  alreadyLinked: 'This portal account is already linked to a company identity. Ask an administrator.',
  identityTaken: 'This company identity is already linked to another portal account.',
  unconfirmedAccount:
    'The portal account with this address has not confirmed its address yet. Confirm it from the mailed link first.',
  reauthNotLinked: (company: string) =>
    `Your account is not linked to ${company}, so you cannot confirm with a sign-in there. Use your password.`,
  reauthOtherIdentity: (company: string) =>
    `You signed in at ${company} as someone else. Sign in there as yourself to confirm.`,
  reauthNotFresh: (company: string) =>
    `${company} did not ask for your password again. Start the confirmation again.`,
  ticketInvalid:
    'The confirmation with your company sign-in was already used, has expired or is not yours. Sign in at your company again to confirm.',
  notRequested: (email: string) => `${email}: no link to a company identity was requested`,
  notLinked: (email: string) => `${email}: no company identity is linked`,
  ownLink: (email: string) => `${email}: you cannot decide the link of your own account`,
  ownProposal: (email: string) => `${email}: you proposed this link; a second administrator must confirm it`,
} as const;

/** What a sign-in at the company reports back to the page that started it. */
export const COMPANY_MSG = {
  linkRequested:
    'The administrators were asked to link your company identity to the portal account. Two of them must agree; then sign in with your company account again.',
  linked: 'Your company identity is linked to your portal account.',
} as const;
