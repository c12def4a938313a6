import { proofOf } from '../../../shared/api/contracts/packages';
import type { DecideRolesRequest } from '../../../shared/api/contracts/user';
import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { assertNever } from '../../../shared/domain/assert-never';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { holdsAuthority, roleStatusOf } from '../../../shared/domain/identity';
import {
  grantStep,
  proposalExpiresAt,
  ROLE_GRANT_MEANINGS,
  type RoleGrantAction,
  type RoleProposal,
} from '../../../shared/domain/role-grants';
import { roleLabel } from '../../../shared/domain/roles';
import { SIGNATURE_PASSWORD_REQUIRED, type SignatureMethod } from '../../../shared/domain/signature-meanings';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, getAllOrNotFound, mailAfterCommit, toPublicUser, type UserDeps } from './common';
import { roleDecisionMail, roleProposalMail, roleRequestMail } from './mails';
import { type RoleDecisionResult, refuseRoles } from './role-refusals';
import { confirmSignature } from './signature-check';

/** Role requests reaching the administrators, and their decisions (grant or refuse). */

/** Mails every admin that a role waits for their decision; the request itself is already saved. */
export async function tellAdminsOfRequest(d: UserDeps, user: UserRecord): Promise<void> {
  const admins = (await d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a) && a.id !== user.id);
  for (const a of admins) await mailAfterCommit(d, roleRequestMail(a, user, d.config.appUrl));
}

export type { RoleDecisionResult } from './role-refusals';

/**
 * Grants or refuses the requested roles of the given users, in one transaction; audited and mailed. A grant
 * is an electronic signature and two admins' act (decision 180): for each user it proposes the
 * grant where none is pending, or confirms the one another admin proposed. Any user that can be neither
 * (own proposal, own account, already granted) refuses the whole call, naming each, and nothing changes.
 * A refusal (of a request, or of a granted role: a revocation) is signed with a reason: role-refusals.ts.
 */
export async function decideRoles(
  d: UserDeps,
  admin: UserRecord,
  req: DecideRolesRequest,
  sourceIp = 'unknown',
): Promise<RoleDecisionResult> {
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
  if (req.decision === 'REFUSE') return refuseRoles(d, admin, users, req, sourceIp);
  const now = d.clock.now();
  const steps = users.map((u) => grantStep(admin, u, now));
  const refused = steps.flatMap((s) => (s.kind === 'REFUSED' ? [s] : []));
  if (refused.length > 0) {
    const reason = refused.map((s) => s.reason).join('; ');
    // already granted alone stays the 409 it always was; an own proposal or own account is 403
    if (refused.every((s) => s.statusCode === 409)) throw new ConflictError(reason);
    throw new ForbiddenError(reason);
  }
  // the signature: checked once every input is known good, before anything changes
  const proof = proofOf(req);
  if (Object.keys(proof).length === 0) throw new BadRequestError(SIGNATURE_PASSWORD_REQUIRED);
  const method = await confirmSignature(d, admin, proof, sourceIp);

  const at = now.toISOString();
  const planned = users.map((u, i) => {
    const step = steps[i]!;
    const { roleProposal: _dropped, ...rest } = u;
    const base = { ...rest, updatedAt: at, version: u.version + 1 };
    if (step.kind === 'CONFIRM')
      return { u, outcome: 'GRANTED' as const, next: { ...base, roleStatus: 'GRANTED' } as UserRecord, step };
    const proposal: RoleProposal = {
      role: u.userRole,
      proposedById: admin.id,
      proposedByName: admin.name,
      proposedByEmail: admin.email,
      proposedAt: at,
    };
    return { u, outcome: 'PROPOSED' as const, next: { ...base, roleProposal: proposal } as UserRecord };
  });
  // every decision with its event: one transaction (decision 283); the mails after it
  const events = planned.map(({ u, outcome, next }) => {
    const label = roleLabel(u.userRole);
    const facts = { userId: u.id, email: u.email, role: u.userRole, before: roleStatusOf(u) };
    switch (outcome) {
      case 'PROPOSED':
        return adminEvent(
          admin,
          u,
          'ROLE_PROPOSED',
          `proposes granting the role ${label} to ${u.email}; it takes effect once a second administrator confirms it`,
          {
            ...facts,
            after: roleStatusOf(u),
            expiresAt: proposalExpiresAt(next.roleProposal!.proposedAt),
            signature: grantSignature('proposeRole', admin, at, method),
          },
        );
      case 'GRANTED': {
        const proposal = u.roleProposal!;
        return adminEvent(
          admin,
          u,
          'ROLE_GRANTED',
          `grants the role ${label} to ${u.email}, confirming the proposal of ${proposal.proposedByName} (${proposal.proposedByEmail})`,
          {
            ...facts,
            after: 'GRANTED',
            proposedBy: proposal.proposedById,
            proposedAt: proposal.proposedAt,
            signature: grantSignature('confirmRole', admin, at, method),
          },
        );
      }
      default:
        return assertNever(outcome, 'role decision');
    }
  });
  // a refusal (or revocation) ends the person's access tokens for good, in this write (decision 334)
  const changes = planned.map((p) => ({
    next: withTokenEnding(p.u, p.next, at),
    expectedVersion: p.u.version,
  }));
  if (!(await d.users.updateAll(changes, { events })))
    throw new ConflictError('A selected account was changed meanwhile; reload and try again');

  const admins = planned.some((p) => p.outcome === 'PROPOSED')
    ? (await d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a))
    : [];
  for (const { u, outcome, next } of planned) {
    if (outcome === 'PROPOSED')
      for (const a of admins)
        await mailAfterCommit(d, roleProposalMail(a, u, admin, next.roleProposal!, d.config.appUrl));
    else await mailAfterCommit(d, roleDecisionMail(u, true, d.config.appUrl));
  }
  return {
    users: planned.map((p) => toPublicUser(p.next)),
    outcomes: Object.fromEntries(planned.map((p) => [p.u.id, p.outcome])),
  };
}

/** A grant's electronic signature as the audit trail records it (the shape of package signatures). */
function grantSignature(
  action: RoleGrantAction,
  signer: UserRecord,
  signedAt: string,
  method: SignatureMethod = 'password',
) {
  return {
    action,
    meaning: ROLE_GRANT_MEANINGS[action],
    printedName: signer.name,
    role: signer.userRole,
    roleLabel: roleLabel(signer.userRole),
    signedAt,
    authenticatedBy: method,
  };
}
