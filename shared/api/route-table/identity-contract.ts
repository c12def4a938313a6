import * as z from 'zod';
import { idListSchema } from '../contracts/common';
import { answer, done, jsonText } from '../contracts/responses';
import {
  accountSchema,
  changePasswordSchema,
  confirmEmailSchema,
  decideRolesSchema,
  loginSchema,
  registerSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
} from '../contracts/user';
import type { IDENTITY_ROUTES } from './identity';
import type { RouteContract } from './types';

const SMALL = 4096;
const user = jsonText('the user (PublicUser)');
const sent = done('SENT');

/** Requests and answers of the identity rows (shared/api/contract.ts joins the areas). */
export const IDENTITY_CONTRACT = {
  login: {
    body: loginSchema,
    maxBodyBytes: SMALL,
    response: answer({ token: z.string(), user, mustChangePassword: z.literal(true).optional() }),
  },
  auth: { response: answer({ user, mustChangePassword: z.literal(true).optional() }) },
  logout: { response: answer({ status: z.literal('SIGNED_OUT') }) },
  register: {
    body: registerSchema,
    maxBodyBytes: SMALL,
    response: answer({ status: z.literal('REGISTERED'), message: z.string(), user }),
    statuses: [201],
  },
  changePassword: {
    body: changePasswordSchema,
    maxBodyBytes: SMALL,
    response: answer({ status: z.literal('UPDATED'), message: z.string(), token: z.string() }),
  },
  updateAccount: { body: accountSchema, maxBodyBytes: SMALL, response: answer({ user }) },
  resetPassword: { body: resetPasswordSchema, maxBodyBytes: SMALL, response: sent },
  confirmEmail: {
    body: confirmEmailSchema,
    maxBodyBytes: SMALL,
    response: answer({ status: z.literal('CONFIRMED'), message: z.string(), email: z.string() }),
  },
  resendConfirmation: { body: resendConfirmationSchema, maxBodyBytes: SMALL, response: sent },
  adminListUsers: { response: answer({ users: jsonText('the users (PublicUser[])') }) },
  adminDeleteUsers: { body: idListSchema, response: done('DELETED') },
  adminDecideRoles: {
    body: decideRolesSchema,
    response: answer({
      status: z.literal('DECIDED'),
      message: z.string(),
      users: jsonText('the decided users (PublicUser[])'),
    }),
  },
} as const satisfies { [Id in (typeof IDENTITY_ROUTES)[number]['id']]: RouteContract };
