import * as z from 'zod';
import { LINKED_BY } from '../../domain/company-sign-on';
import { ROLE_STATUSES } from '../../domain/identity';
import type { PublicUser } from '../../domain/model/user';
import { GOVERNANCE_TEXT } from '../../domain/role-revocations';
import { ROLES, SELF_SERVICE_ROLES } from '../../domain/roles';
import { SIGNATURE_PASSWORD_REQUIRED } from '../../domain/signature-meanings';
import { API_ERR, MSG } from '../../messages';
import { deletionProposalSchema, emailField, visibleText } from './common';
import { signatureProofShape } from './packages';

const MSG_CONFIRM_TOKEN = 'The confirmation link is incomplete: open the whole link from the mail';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
export const passwordPolicyMessage = `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`;

const newPassword = (emptyMessage: string) =>
  z
    .string({ error: emptyMessage })
    .min(1, { error: emptyMessage })
    .pipe(
      z
        .string()
        .min(PASSWORD_MIN, { error: passwordPolicyMessage })
        .max(PASSWORD_MAX, { error: passwordPolicyMessage }),
    );

/** A self-service role; naming ADMIN (or anything unknown) is refused with a clear message. */
const selfServiceRole = z
  .enum(ROLES, { error: 'Choose one of the user roles' })
  .refine((r) => r !== 'ADMIN', {
    error: 'The admin role cannot be chosen',
  });

/**
 * POST /user/auth (spec §7): the body carries the token as 'Bearer ' plus the cookie token. The
 * Authorization header is what signs the call in (the route's gate); a body token must be the same one
 * (decision 154). Optional: a call without a body is still answered.
 */
export const authBodySchema = z.object({
  token: z
    .string({ error: "token must be 'Bearer ' followed by the token" })
    .max(4000, { error: 'token is too long' })
    .regex(/^Bearer \S+$/, { error: "token must be 'Bearer ' followed by the token" })
    .optional(),
});

/** The token of a 'Bearer …' text, or null. */
export const tokenOfBearer = (value: string | undefined | null): string | null =>
  value ? (/^Bearer\s+(\S+)$/i.exec(value.trim())?.[1] ?? null) : null;

export const loginSchema = z.object({
  login: z
    .string({ error: MSG.loginEmpty })
    .trim()
    .min(1, { error: MSG.loginEmpty })
    .max(254, { error: MSG.loginIncorrect }),
  password: z
    .string({ error: MSG.loginEmpty })
    .min(1, { error: MSG.loginEmpty })
    .max(PASSWORD_MAX, { error: MSG.loginIncorrect }),
});
export type LoginRequest = z.infer<typeof loginSchema>;

/**
 * A person's name reaches mails (subjects and bodies), the audit trail and signed packages: visible text
 * only, like package names, so a line break cannot forge lines of a mail and a bidi override cannot
 * disguise whose approval a package records.
 */
const personName = visibleText('name', 'Name', MSG.registerNameRequired, 100);

export const registerSchema = z.object({
  name: personName,
  email: emailField(MSG.registerEmailRequired),
  password: newPassword(MSG.registerPasswordRequired),
  userRole: selfServiceRole,
});
export type RegisterRequest = z.infer<typeof registerSchema>;

export const changePasswordSchema = z.object({
  oldPassword: z
    .string({ error: MSG.passwordFieldsEmpty })
    .min(1, { error: MSG.passwordFieldsEmpty })
    .max(PASSWORD_MAX),
  newPassword: newPassword(MSG.passwordFieldsEmpty),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

export const accountSchema = z.object({
  name: personName,
  email: emailField(MSG.registerEmailRequired),
  // ADMIN passes the schema so an admin can save their own name and email; the service refuses a
  // non-admin choosing it and an admin changing it
  userRole: z.enum(ROLES, { error: 'Choose one of the user roles' }),
});
export type AccountRequest = z.infer<typeof accountSchema>;

export const resetPasswordSchema = z.object({
  email: emailField(MSG.loginEmpty),
});

/** What the API tells about a user (never the hash). Sent as JSON text in `user` (spec §3). */
export const publicUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  userRole: z.enum(ROLES),
  /** GRANTED: the role holds authority; REQUESTED: waits for an admin; REFUSED: an admin said no */
  roleStatus: z.enum(ROLE_STATUSES).optional(),
  /** the role waiting for an admin's decision (only while REQUESTED) */
  requestedRole: z.enum(ROLES).optional(),
  /** a new address waiting for its confirmation link; `email` stays the login until then */
  pendingEmail: z.string().optional(),
  /** in the admin list: whether the account confirmed its address */
  emailConfirmed: z.boolean().optional(),
  /** in the admin list: how many passkeys the account signs in and signs with (decision 322) */
  passkeys: z.number().optional(),
  /** in the admin list: a grant one admin proposed, waiting for a second admin (decision 180) */
  roleProposal: z
    .object({
      role: z.enum(ROLES),
      proposedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      proposedAt: z.string(),
      expiresAt: z.string(),
    })
    .optional(),
  /** in the admin list: the account's deletion one admin proposed, waiting for a second (decision 336) */
  deletionProposal: deletionProposalSchema.optional(),
  /** in the admin list: a revocation of the granted role one admin proposed, waiting for a second (decision 357) */
  revocationProposal: deletionProposalSchema.extend({ role: z.enum(ROLES) }).optional(),
  /** the company identity that signs in as this account (company sign-on, decision 315) */
  companyIdentity: z
    .object({ email: z.string(), subject: z.string(), linkedAt: z.string(), linkedBy: z.enum(LINKED_BY) })
    .optional(),
  /** the account has no portal password: it signs in (and confirms signatures) at the company only */
  passwordless: z.literal(true).optional(),
  /** in the admin list: a company identity asking to be linked to this account (two admins decide) */
  companyLinkRequest: z
    .object({
      email: z.string(),
      subject: z.string(),
      requestedAt: z.string(),
      proposedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }).optional(),
    })
    .optional(),
});
// the model lives in the domain; its schema here describes exactly it (a compile error otherwise)
export type { PublicUser } from '../../domain/model/user';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_T extends true>() => undefined;
same<Same<z.output<typeof publicUserSchema>, PublicUser>>();

export { SELF_SERVICE_ROLES };

const confirmToken = z
  .string({ error: MSG_CONFIRM_TOKEN })
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: MSG_CONFIRM_TOKEN });

/**
 * `POST /user/confirm-email`: the token from the mailed link (32 random bytes, base64url) and the password
 * chosen at registration (only who holds the mailbox and chose the password confirms).
 */
export const confirmEmailSchema = z.object({
  token: confirmToken,
  password: z
    .string({ error: API_ERR.confirmPasswordNeeded })
    .min(1, { error: API_ERR.confirmPasswordNeeded })
    .max(PASSWORD_MAX, { error: API_ERR.confirmPasswordWrong }),
});

/** `POST /user/confirm-email/cancel` ("I did not register"): the token from the mailed link alone. */
export const cancelRegistrationSchema = z.object({ token: confirmToken });
export type ConfirmEmailRequest = z.infer<typeof confirmEmailSchema>;

/** `POST /user/confirm-email/resend`: the address that waits for a link. */
export const resendConfirmationSchema = z.object({
  email: emailField(MSG.registerEmailRequired),
});

/**
 * Users decided in one call: every decision commits with its audit events in one DynamoDB transaction (at
 * most 100 items: per user the record, its event and its chain head; decision 285).
 */
export const MAX_USERS_DECIDED_AT_ONCE = 30;

const ids = z
  .array(z.string().min(1).max(64), { error: 'Send the user ids as a JSON list' })
  .min(1, { error: 'Select at least one item' })
  .max(MAX_USERS_DECIDED_AT_ONCE, {
    error: `At most ${MAX_USERS_DECIDED_AT_ONCE} users can be decided at once`,
  });

/**
 * `POST /admin/users/roles`: grant or refuse the requested roles of the selected users. `roles` (optional,
 * sent by the admin screen) names the role each user asked for as the admin saw it: a user who asked for
 * another role meanwhile is not decided (409), so a grant never covers a role the admin did not see.
 * A grant is an electronic signature and needs `password`: it proposes the grant where none is
 * pending and confirms one another admin proposed (decision 180). A refusal (of a request) or a revocation
 * (of a granted role) is a signature too, with a `reason`: one admin's, unless it would leave a role the
 * approval policy needs without a holder, then proposed and confirmed by two (decision 357).
 */
export const decideRolesSchema = z
  .object(
    {
      grant: ids.optional(),
      refuse: ids.optional(),
      roles: z.record(z.string(), z.enum(ROLES, { error: 'Choose one of the user roles' })).optional(),
      // why a role is refused or revoked: the audit trail keeps it, the person reads it by mail
      reason: visibleText('note', 'Reason', GOVERNANCE_TEXT.reasonRequired, 2000).optional(),
      // the grant's signature (decision 322): the password, a passkey or a fresh company sign-in
      ...signatureProofShape,
    },
    {
      error:
        'Send { "grant": [ids], "password": "…" } or { "refuse": [ids], "password": "…", "reason": "…" }',
    },
  )
  .refine((b) => (b.grant === undefined) !== (b.refuse === undefined), {
    error: 'Send either "grant" or "refuse" with a list of user ids, not both',
  })
  .refine((b) => b.refuse === undefined || b.reason !== undefined, {
    error: GOVERNANCE_TEXT.reasonRequired,
  })
  .refine((b) => [b.password, b.passkey, b.reauthTicket].some((x) => x !== undefined), {
    error: SIGNATURE_PASSWORD_REQUIRED,
  })
  .refine((b) => [b.password, b.passkey, b.reauthTicket].filter((x) => x !== undefined).length <= 1, {
    error: 'Sign with one of password, passkey or reauthTicket, not several',
  })
  .transform((b) => ({
    ...(b.grant
      ? { decision: 'GRANT' as const, ids: b.grant }
      : { decision: 'REFUSE' as const, ids: b.refuse! }),
    ...(b.roles ? { roles: b.roles } : {}),
    ...(b.refuse && b.reason !== undefined ? { reason: b.reason } : {}),
    ...(b.password !== undefined ? { password: b.password } : {}),
    ...(b.passkey !== undefined ? { passkey: b.passkey } : {}),
    ...(b.reauthTicket !== undefined ? { reauthTicket: b.reauthTicket } : {}),
  }));
export type DecideRolesRequest = z.infer<typeof decideRolesSchema>;

/**
 * Per user id, what a decision did: a grant PROPOSED or GRANTED (confirmed), the role REFUSED (or
 * revoked), or a revocation REVOCATION_PROPOSED, waiting for a second admin (decision 357).
 */
export const ROLE_DECISION_OUTCOMES = ['PROPOSED', 'GRANTED', 'REFUSED', 'REVOCATION_PROPOSED'] as const;
export type RoleDecisionOutcome = (typeof ROLE_DECISION_OUTCOMES)[number];
