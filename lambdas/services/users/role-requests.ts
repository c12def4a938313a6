import type { DecideRolesRequest, PublicUser } from '../../../shared/api/contracts/user';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { holdsAuthority, roleStatusOf } from '../../../shared/domain/identity';
import { roleLabel } from '../../../shared/domain/roles';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { getAllOrNotFound, mailAfterCommit, recordAdminEvent, toPublicUser, type UserDeps } from './common';
import { roleDecisionMail, roleRequestMail } from './mails';

/** Role requests reaching the administrators, and their decisions (grant or refuse). */

/** Mails every admin that a role waits for their decision; the request itself is already saved. */
export async function tellAdminsOfRequest(d: UserDeps, user: UserRecord): Promise<void> {
  const admins = (await d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a) && a.id !== user.id);
  for (const a of admins) await mailAfterCommit(d, roleRequestMail(a, user, d.config.appUrl));
}

/** Grants or refuses the requested roles of the given users, in one transaction; audited and mailed. */
export async function decideRoles(
  d: UserDeps,
  admin: UserRecord,
  req: DecideRolesRequest,
): Promise<PublicUser[]> {
  if (new Set(req.ids).has(admin.id)) throw new ForbiddenError(API_ERR.ownRoleUndecidable);
  const { users } = await getAllOrNotFound(d, req.ids);
  if (users.some((u) => u.userRole === 'ADMIN')) throw new BadRequestError(API_ERR.adminRoleNotDecided);
  // a user who asked for another role since the admin's list was read: that request was not seen
  const seen = req.roles;
  const moved = seen ? users.filter((u) => seen[u.id] !== undefined && seen[u.id] !== u.userRole) : [];
  if (moved.length > 0)
    throw new ConflictError(
      `${moved
        .map((u) => `${u.email} now asks for ${roleLabel(u.userRole)}, not ${roleLabel(seen![u.id]!)}`)
        .join('; ')}: reload the list and decide again`,
    );
  const grant = req.decision === 'GRANT';
  const target = grant ? 'GRANTED' : 'REFUSED';
  const already = users.filter((u) => roleStatusOf(u) === target);
  if (already.length > 0)
    throw new ConflictError(
      `${already.map((u) => u.email).join(', ')}: the role is already ${grant ? 'granted' : 'refused'}`,
    );
  const now = d.clock.now().toISOString();
  const changes = users.map((u) => ({
    next: { ...u, roleStatus: target, updatedAt: now, version: u.version + 1 } as UserRecord,
    expectedVersion: u.version,
  }));
  if (!(await d.users.updateAll(changes)))
    throw new ConflictError('A selected account was changed meanwhile; reload and try again');
  for (const u of users) {
    const label = roleLabel(u.userRole);
    await recordAdminEvent(
      d,
      admin,
      u,
      grant ? 'ROLE_GRANTED' : 'ROLE_REFUSED',
      grant
        ? `grants the role ${label} to ${u.email}`
        : `refuses the role ${label} to ${u.email}; the account holds no role authority`,
      { userId: u.id, email: u.email, role: u.userRole, before: roleStatusOf(u), after: target },
    );
    await mailAfterCommit(d, roleDecisionMail(u, grant, d.config.appUrl));
  }
  return changes.map((c) => toPublicUser(c.next));
}
