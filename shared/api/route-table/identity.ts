import * as z from 'zod';
import { userListQuerySchema } from '../contracts/list-view';
import { packageDeletionSchema } from '../contracts/packages';
import { secondFactorSchema } from '../contracts/passkeys';
import { answer, done, jsonText } from '../contracts/responses';
import {
  accountSchema,
  authBodySchema,
  cancelRegistrationSchema,
  changePasswordSchema,
  confirmEmailSchema,
  decideRolesSchema,
  loginSchema,
  ROLE_DECISION_OUTCOMES,
  registerSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
} from '../contracts/user';
import { ADMIN, CHANGES_ACCOUNTS, USERS } from './groups';
import type { Route, RouteRequest } from './types';

/** Identity: sign-in, registration, own account, the admins' user list. */
export const IDENTITY_ROUTES = [
  {
    id: 'login',
    method: 'POST',
    path: '/user/login',
    access: 'public',
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    memoryMb: 1024,
    summary: 'Sign in with login (email) and password',
  },
  {
    id: 'auth',
    method: 'POST',
    path: '/user/auth',
    access: 'signedIn',
    uses: { tables: USERS },
    ungranted: true,
    summary: 'Restore a session from a token',
  },
  {
    id: 'logout',
    method: 'POST',
    path: '/user/logout',
    access: 'signedIn',
    // the token version moves on
    uses: { tables: USERS, writes: USERS },
    ungranted: true,
    summary: 'Revoke every token of the caller',
  },
  {
    id: 'register',
    method: 'POST',
    path: '/user/register',
    access: 'public',
    // mails the confirmation link and tells the admins a role was requested
    // limited per source before any hashing
    uses: { ...CHANGES_ACCOUNTS, mail: true, clientSource: true },
    memoryMb: 1024,
    summary: 'Self-service registration (not as admin)',
  },
  {
    id: 'changePassword',
    method: 'POST',
    path: '/user/password',
    access: 'signedIn',
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    memoryMb: 1024,
    ungranted: true,
    summary: 'Change own password',
  },
  {
    id: 'updateAccount',
    method: 'POST',
    path: '/user/account',
    access: 'signedIn',
    // a new email gets a confirmation link; a new role is a request the admins hear of;
    // packages: a role change is refused while a package waits for this person's decision
    uses: { tables: ['users', 'audit', 'packages'], writes: ['users', 'audit'], mail: true },
    ungranted: true,
    summary: 'Change own name, email, role',
  },
  {
    id: 'resetPassword',
    method: 'POST',
    path: '/user/reset-password',
    access: 'public',
    uses: { ...CHANGES_ACCOUNTS, mail: true, clientSource: true },
    memoryMb: 1024,
    summary: 'Mail a temporary password',
  },
  {
    id: 'confirmEmail',
    method: 'POST',
    path: '/user/confirm-email',
    access: 'public',
    // a confirmed registration is the moment the admins are told of the role request; the password
    // chosen at registration is checked (hashing, the sign-in throttle per source)
    uses: { ...CHANGES_ACCOUNTS, mail: true, clientSource: true },
    memoryMb: 1024,
    summary:
      'Confirm an address with the single-use token of a mailed link (24 h) and the password chosen at registration',
  },
  {
    id: 'cancelRegistration',
    method: 'POST',
    path: '/user/confirm-email/cancel',
    access: 'public',
    uses: CHANGES_ACCOUNTS,
    summary:
      '"I did not register": the mailed token cancels the registration (or email change) and frees the address',
  },
  {
    id: 'resendConfirmation',
    method: 'POST',
    path: '/user/confirm-email/resend',
    access: 'public',
    // the new link's token and the per-address quota are kept with the users
    uses: { tables: USERS, writes: USERS, mail: true },
    summary: 'Mail a new confirmation link (same answer for any address; a few per address per 15 min)',
  },
  {
    id: 'adminListUsers',
    method: 'GET',
    path: '/admin/users',
    access: ADMIN,
    uses: { tables: USERS },
    summary: 'All users',
  },
  {
    id: 'adminDeleteUsers',
    method: 'DELETE',
    path: '/admin/users',
    access: ADMIN,
    // packages: a user a package still waits for cannot be deleted; every deletion is signed with a reason;
    // an administrator's account, or the last holder of a role the policy needs, takes two admins (357)
    uses: { tables: ['users', 'audit', 'packages'], writes: ['users', 'audit'], mail: true },
    summary:
      'Delete users by id (signed, with password and reason; an administrator or the last holder of a role the approval policy needs: one admin proposes, a second confirms)',
  },
  {
    id: 'adminDecideRoles',
    method: 'POST',
    path: '/admin/users/roles',
    access: ADMIN,
    uses: { ...CHANGES_ACCOUNTS, mail: true },
    summary:
      'Grant requested roles (signed; one admin proposes, a second confirms) or refuse / revoke them (signed, with a reason; two admins when no holder of a needed role would be left); mailed',
  },
] as const satisfies readonly Route[];

const SMALL = 4096;

/** Requests of the identity rows. */
export const IDENTITY_CONTRACT = {
  login: { body: loginSchema, maxBodyBytes: SMALL },
  auth: { body: authBodySchema, maxBodyBytes: SMALL },
  logout: {},
  register: { body: registerSchema, maxBodyBytes: SMALL, statuses: [201] },
  changePassword: { body: changePasswordSchema, maxBodyBytes: SMALL },
  updateAccount: { body: accountSchema, maxBodyBytes: SMALL },
  resetPassword: { body: resetPasswordSchema, maxBodyBytes: SMALL },
  confirmEmail: { body: confirmEmailSchema, maxBodyBytes: SMALL },
  cancelRegistration: { body: cancelRegistrationSchema, maxBodyBytes: SMALL },
  resendConfirmation: { body: resendConfirmationSchema, maxBodyBytes: SMALL },
  adminListUsers: { query: userListQuerySchema },
  adminDeleteUsers: { body: packageDeletionSchema, statuses: [200, 202] },
  adminDecideRoles: { body: decideRolesSchema },
} as const satisfies { [Id in (typeof IDENTITY_ROUTES)[number]['id']]: RouteRequest };

const user = jsonText('the user (PublicUser)');
const sent = done('SENT');

/**
 * What a sign-in answers (POST /user/login, and the company sign-on's callback): the spec's answer, or, for
 * an account that holds a passkey, the second step it owes (decision 322): a single-use ticket and the
 * options for the browser's passkey prompt; POST /user/login/passkey then answers the spec's answer.
 */
export const signInAnswerSchema = z.union([
  answer({ token: z.string(), user, mustChangePassword: z.literal(true).optional() }),
  answer({ secondFactor: secondFactorSchema }),
]);

/** Answers of the identity rows. */
export const IDENTITY_RESPONSES = {
  login: signInAnswerSchema,
  auth: answer({ user, mustChangePassword: z.literal(true).optional() }),
  logout: answer({ status: z.literal('SIGNED_OUT') }),
  register: answer({ status: z.literal('REGISTERED'), message: z.string(), user }),
  changePassword: answer({ status: z.literal('UPDATED'), message: z.string(), token: z.string() }),
  updateAccount: answer({ user }),
  resetPassword: sent,
  confirmEmail: answer({ status: z.literal('CONFIRMED'), message: z.string(), email: z.string() }),
  cancelRegistration: answer({ status: z.literal('CANCELLED'), message: z.string(), email: z.string() }),
  resendConfirmation: sent,
  adminListUsers: answer({
    users: jsonText('the users (PublicUser[])'),
    total: z.number().optional().meta({
      description: 'with offset, limit, search or sort: how many rows the search matched (decision 221)',
    }),
  }),
  adminDeleteUsers: z.union([done('DELETED'), done('PROPOSED')]),
  adminDecideRoles: answer({
    status: z.literal('DECIDED'),
    message: z.string(),
    users: jsonText('the decided users (PublicUser[])'),
    /** per user id: PROPOSED (waits for a second admin), GRANTED (confirmed, in effect) or REFUSED */
    outcomes: z.record(z.string(), z.enum(ROLE_DECISION_OUTCOMES)),
  }),
} as const satisfies { [Id in (typeof IDENTITY_ROUTES)[number]['id']]: z.ZodType };
