import type { UserRecord } from '../../ports/user-repository';

/** Who did it, as an audit event records the actor. */
export const byActor = (u: Pick<UserRecord, 'id' | 'name' | 'userRole'>) => ({
  actorId: u.id,
  actorName: u.name,
  actorRole: u.userRole,
});

// What each audit event means: AUDIT_MEANING in shared/domain/package-texts.ts (the mock answers with it too).
