import * as z from 'zod';
import { signatureProofShape } from './packages';
import { PASSWORD_MAX } from './user';

/** Requests of company sign-on (OpenID Connect, decision 315). */

const RESTART = 'Start the sign-in again from the sign-in page';

/** A secret the server handed out (state, binding, tickets): 32 random bytes, base64url. */
const secret = (what: string) =>
  z
    .string({ error: `${what} is missing: ${RESTART}` })
    .regex(/^[A-Za-z0-9_-]{32,100}$/, { error: `${what} is not one the portal handed out: ${RESTART}` });

/** The page the provider sent the browser back to: its whole query string, and the starting window's binding. */
export const companyCallbackSchema = z.object({
  search: z
    .string({ error: `The answer of the identity provider is missing: ${RESTART}` })
    .max(8192, { error: `The answer of the identity provider is too long: ${RESTART}` })
    .regex(/^\?\S+$/, { error: `The answer of the identity provider is not a query string: ${RESTART}` }),
  binding: secret('The sign-in of this window'),
});
export type CompanyCallbackRequest = z.infer<typeof companyCallbackSchema>;

/** The owner of an existing account links it with the portal password. */
export const linkCompanyIdentitySchema = z.object({
  linkTicket: secret('The link offer'),
  password: z
    .string({ error: 'Enter the password of your portal account' })
    .min(1, { error: 'Enter the password of your portal account' })
    .max(PASSWORD_MAX, { error: 'password is too long' }),
});

/** The owner asks two admins to link instead. */
export const requestCompanyLinkSchema = z.object({ linkTicket: secret('The link offer') });

export const COMPANY_LINK_DECISIONS = ['LINK', 'REFUSE', 'UNLINK'] as const;
export const COMPANY_LINK_OUTCOMES = ['PROPOSED', 'LINKED', 'REFUSED', 'UNLINKED'] as const;

/**
 * The admins' decision on company identities: LINK (one proposes, a second confirms) and UNLINK are
 * signed with one proof of the signer (the password, a passkey or a fresh company sign-in's
 * `reauthTicket`, decision 322); REFUSE is not.
 */
export const companyLinkDecisionSchema = z.object({
  ids: z
    .array(z.string().min(1).max(64))
    .min(1, { error: 'Select at least one user' })
    .max(100, { error: 'At most 100 users at once' }),
  decision: z.enum(COMPANY_LINK_DECISIONS, { error: 'decision must be LINK, REFUSE or UNLINK' }),
  ...signatureProofShape,
});
export type CompanyLinkDecisionRequest = z.infer<typeof companyLinkDecisionSchema>;
