import { idListSchema } from '../contracts/common';
import { userListQuerySchema } from '../contracts/list-view';
import {
  accountSchema,
  authBodySchema,
  cancelRegistrationSchema,
  changePasswordSchema,
  confirmEmailSchema,
  decideRolesSchema,
  loginSchema,
  registerSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
} from '../contracts/user';
import type { IDENTITY_ROUTES } from './identity';
import type { RouteRequest } from './types';

const SMALL = 4096;

/**
 * Requests of the identity rows (shared/api/contract.ts joins the areas, and the answers of
 * identity-responses.ts, which handlers import only as types).
 */
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
  adminDeleteUsers: { body: idListSchema },
  adminDecideRoles: { body: decideRolesSchema },
} as const satisfies { [Id in (typeof IDENTITY_ROUTES)[number]['id']]: RouteRequest };
