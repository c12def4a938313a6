import * as z from 'zod';
import { answer, done, jsonText } from '../contracts/responses';
import { ROLE_DECISION_OUTCOMES } from '../contracts/user';
import type { IDENTITY_ROUTES } from './identity';

const user = jsonText('the user (PublicUser)');
const sent = done('SENT');

/** Answers of the identity rows (shared/api/contract.ts joins them with identity-contract.ts). */
export const IDENTITY_RESPONSES = {
  login: answer({ token: z.string(), user, mustChangePassword: z.literal(true).optional() }),
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
  adminDeleteUsers: done('DELETED'),
  adminDecideRoles: answer({
    status: z.literal('DECIDED'),
    message: z.string(),
    users: jsonText('the decided users (PublicUser[])'),
    /** per user id: PROPOSED (waits for a second admin), GRANTED (confirmed, in effect) or REFUSED */
    outcomes: z.record(z.string(), z.enum(ROLE_DECISION_OUTCOMES)),
  }),
} as const satisfies { [Id in (typeof IDENTITY_ROUTES)[number]['id']]: z.ZodType };
