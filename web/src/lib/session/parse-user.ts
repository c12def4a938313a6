import { ROLE_STATUSES, type RoleStatus } from '@shared/domain/identity';
import { isRole } from '@shared/domain/roles';
import { type AnswerSchema, parseJsonText, UnreadableAnswer } from '@/lib/api-client/api-client';
import type { SessionUser } from './session-store';

/**
 * The `user` field of identity answers: JSON text of {id, name, email, userRole} (spec §3). Checked by
 * hand, not with zod: the session code is in the SPA's first chunk, zod in a later one (decision 238).
 * Spec §6: an unknown role is displayed as Technical Leader; it is never taken for an admin.
 */
const userAnswer: AnswerSchema<SessionUser> = {
  safeParse(value) {
    if (!value || typeof value !== 'object') return { success: false };
    const { id, name, email, userRole, roleStatus, pendingEmail, passwordless, companyIdentity } =
      value as Record<string, unknown>;
    if (typeof id !== 'string' || typeof name !== 'string' || typeof email !== 'string')
      return { success: false };
    const status = (ROLE_STATUSES as readonly unknown[]).includes(roleStatus)
      ? (roleStatus as RoleStatus)
      : undefined;
    return {
      success: true,
      data: {
        id,
        name,
        email,
        userRole: isRole(userRole) ? userRole : 'TECHNICAL_LEADER',
        ...(status ? { roleStatus: status } : {}),
        ...(typeof pendingEmail === 'string' ? { pendingEmail } : {}),
        ...(passwordless === true ? { passwordless: true as const } : {}),
        ...(companyIdentity && typeof companyIdentity === 'object' ? { companyLinked: true as const } : {}),
      },
    };
  },
};

export function parseUser(value: unknown): SessionUser | null {
  try {
    return parseJsonText(value, userAnswer, null);
  } catch (e) {
    if (e instanceof UnreadableAnswer) return null;
    throw e;
  }
}
