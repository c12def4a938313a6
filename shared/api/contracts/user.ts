import * as z from 'zod';
import { ROLES, SELF_SERVICE_ROLES } from '../../domain/roles';
import { MSG } from '../../messages';
import { emailField, nonBlank } from './common';

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

export const registerSchema = z.object({
  name: nonBlank(MSG.registerNameRequired, 100),
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
  name: nonBlank(MSG.registerNameRequired, 100),
  email: emailField(MSG.registerEmailRequired),
  userRole: selfServiceRole,
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
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export { SELF_SERVICE_ROLES };
