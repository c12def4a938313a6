import { ROLE_STATUSES } from '@shared/domain/identity';
import { isRole } from '@shared/domain/roles';
import { parseJsonText } from '@/lib/api-client/api-client';
import type { SessionUser } from './session-store';

/** The `user` field of identity answers: JSON text of {id, name, email, userRole} (spec §3). */
export function parseUser(value: unknown): SessionUser | null {
  const user = parseJsonText<Partial<SessionUser> | null>(value, null);
  if (!user || typeof user !== 'object') return null;
  const { id, name, email, userRole, roleStatus, pendingEmail } = user;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof email !== 'string') return null;
  // spec §6: an unknown role is displayed as Technical Leader; it is never taken for an admin
  return {
    id,
    name,
    email,
    userRole: isRole(userRole) ? userRole : 'TECHNICAL_LEADER',
    ...(roleStatus && (ROLE_STATUSES as readonly string[]).includes(roleStatus) ? { roleStatus } : {}),
    ...(typeof pendingEmail === 'string' ? { pendingEmail } : {}),
  };
}
