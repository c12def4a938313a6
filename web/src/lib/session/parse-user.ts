import { ROLE_STATUSES } from '@shared/domain/identity';
import { isRole } from '@shared/domain/roles';
import { z } from 'zod';
import { parseJsonText, UnreadableAnswer } from '@/lib/api-client/api-client';

/** What parseUser needs of the answer; the role and status are checked below (spec §6 maps unknown roles). */
const userAnswer = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  userRole: z.unknown(),
  roleStatus: z.enum(ROLE_STATUSES).optional().catch(undefined),
  pendingEmail: z.string().optional().catch(undefined),
});

import type { SessionUser } from './session-store';

/** The `user` field of identity answers: JSON text of {id, name, email, userRole} (spec §3). */
export function parseUser(value: unknown): SessionUser | null {
  let user: z.output<typeof userAnswer> | null;
  try {
    user = parseJsonText(value, userAnswer, null);
  } catch (e) {
    if (e instanceof UnreadableAnswer) return null;
    throw e;
  }
  if (!user) return null;
  const { id, name, email, userRole, roleStatus, pendingEmail } = user;
  // spec §6: an unknown role is displayed as Technical Leader; it is never taken for an admin
  return {
    id,
    name,
    email,
    userRole: isRole(userRole) ? userRole : 'TECHNICAL_LEADER',
    ...(roleStatus ? { roleStatus } : {}),
    ...(pendingEmail !== undefined ? { pendingEmail } : {}),
  };
}
