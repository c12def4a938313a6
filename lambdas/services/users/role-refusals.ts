import { proofOf } from '../../../shared/api/contracts/packages';
import type { DecideRolesRequest, PublicUser, RoleDecisionOutcome } from '../../../shared/api/contracts/user';
import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { APPROVAL_POLICY } from '../../../shared/domain/approval-policy';
import { assertNever } from '../../../shared/domain/assert-never';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import { holdsAuthority, roleStatusOf } from '../../../shared/domain/identity';
import {
  GOVERNANCE_TEXT,
  governanceSignature,
  type RevocationProposal,
  type RevocationStep,
  revocationExpiresAt,
  revocationStep,
  secondAdminNeeded,
} from '../../../shared/domain/role-revocations';
import { roleLabel } from '../../../shared/domain/roles';
import type { Mail } from '../../ports/mailer';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, mailAfterCommit, toPublicUser, type UserDeps } from './common';
import { confirmSignature } from './signature-check';

/** What a decision answers: the decided users and, per id, what happened to each. */
export interface RoleDecisionResult {
  users: PublicUser[];
  outcomes: Record<string, RoleDecisionOutcome>;
}

/**
 * Refusing a requested role and revoking a granted one (decision 357): a signature with a reason. One
 * admin's signature ends the role at once, unless the revocation would leave a role the approval policy
 * needs without a holder: then it is proposed, and a second admin's identical call confirms it. Every
 * account with its event in one transaction (decision 283); the person and the admins are mailed after.
 */
export async function refuseRoles(
  d: UserDeps,
  admin: UserRecord,
  users: readonly UserRecord[],
  req: DecideRolesRequest,
  sourceIp: string,
): Promise<RoleDecisionResult> {
  const already = users.filter((u) => roleStatusOf(u) === 'REFUSED' || roleStatusOf(u) === 'NONE');
  if (already.length > 0)
    throw new ConflictError(
      `${already.map((u) => u.email).join(', ')}: ${already.every((u) => roleStatusOf(u) === 'NONE') ? 'no role was requested yet' : 'the role is already refused'}`,
    );
  const reason = req.reason;
  if (!reason) throw new BadRequestError(GOVERNANCE_TEXT.reasonRequired);
  const now = d.clock.now();
  const steps = await stepsOf(d, admin, users, now);
  const own = users.filter((u) => steps.get(u.id)?.kind === 'OWN_PROPOSAL');
  if (own.length > 0) throw new ConflictError(GOVERNANCE_TEXT.ownRevocation(own.map((u) => u.email)));
  // the signature last among the checks: a wrong proof (403) changes nothing
  const method = await confirmSignature(d, admin, proofOf(req), sourceIp);
  const at = now.toISOString();
  const planned = users.map((u) => {
    const step = steps.get(u.id) ?? ({ kind: 'NOW' } as const);
    const { roleProposal: _grant, revocationProposal: _revocation, ...rest } = u;
    const base = { ...rest, updatedAt: at, version: u.version + 1 };
    if (step.kind === 'PROPOSE') {
      const proposal: RevocationProposal = {
        role: u.userRole,
        proposedById: admin.id,
        proposedByName: admin.name,
        proposedByEmail: admin.email,
        proposedAt: at,
        reason,
      };
      return { u, step, next: { ...base, revocationProposal: proposal } as UserRecord };
    }
    return { u, step, next: { ...base, roleStatus: 'REFUSED' } as UserRecord };
  });
  const events = planned.map(({ u, step }) => {
    const label = roleLabel(u.userRole);
    const facts = { userId: u.id, email: u.email, role: u.userRole, before: roleStatusOf(u), reason };
    const revoking = roleStatusOf(u) === 'GRANTED';
    const verb = revoking ? 'revokes' : 'refuses';
    switch (step.kind) {
      case 'NOW':
      case 'OWN_PROPOSAL':
        return adminEvent(
          admin,
          u,
          'ROLE_REFUSED',
          `${verb} the role ${label} of ${u.email}; the account holds no role authority`,
          {
            ...facts,
            after: 'REFUSED',
            ...(u.roleProposal ? { droppedProposal: u.roleProposal } : {}),
            signature: governanceSignature('refuseRole', admin, at, method),
          },
        );
      case 'PROPOSE':
        return adminEvent(
          admin,
          u,
          'ROLE_REVOCATION_PROPOSED',
          `proposes revoking the role ${label} of ${u.email} (${step.why}); it is revoked once a second administrator confirms it`,
          {
            ...facts,
            after: 'GRANTED',
            expiresAt: revocationExpiresAt(at),
            signature: governanceSignature('proposeRevocation', admin, at, method),
          },
        );
      case 'CONFIRM':
        return adminEvent(
          admin,
          u,
          'ROLE_REFUSED',
          `revokes the role ${label} of ${u.email}, confirming the proposal of ${step.proposal.proposedByName} (${step.proposal.proposedByEmail}); the account holds no role authority`,
          {
            ...facts,
            after: 'REFUSED',
            proposedBy: step.proposal.proposedById,
            proposedAt: step.proposal.proposedAt,
            proposalReason: step.proposal.reason,
            signature: governanceSignature('confirmRevocation', admin, at, method),
          },
        );
      default:
        return assertNever(step, 'revocation step');
    }
  });
  // an ended role ends the person's access tokens for good, in this write (decision 334)
  const changes = planned.map((p) => ({
    next: withTokenEnding(p.u, p.next, at),
    expectedVersion: p.u.version,
  }));
  if (!(await d.users.updateAll(changes, { events })))
    throw new ConflictError('A selected account was changed meanwhile; reload and try again');

  const admins = (await d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a) && a.id !== admin.id);
  for (const { u, step } of planned)
    for (const m of refusalMails(u, admin, step, reason, admins, d.config.appUrl, at))
      await mailAfterCommit(d, m);
  return {
    users: planned.map((p) => toPublicUser(p.next)),
    outcomes: Object.fromEntries(
      planned.map((p) => [p.u.id, p.step.kind === 'PROPOSE' ? 'REVOCATION_PROPOSED' : 'REFUSED'] as const),
    ),
  };
}

/** Each user's step: the policy's quorum read from every holder of the roles this call ends. */
async function stepsOf(
  d: UserDeps,
  admin: UserRecord,
  users: readonly UserRecord[],
  now: Date,
): Promise<Map<string, RevocationStep>> {
  const roles = [...new Set(users.filter((u) => holdsAuthority(u)).map((u) => u.userRole))];
  const holders = (await Promise.all(roles.map((r) => d.users.listByRole(r)))).flat().filter(holdsAuthority);
  const why = secondAdminNeeded(
    APPROVAL_POLICY,
    holders,
    users.map((u) => ({ id: u.id, userRole: u.userRole, holds: holdsAuthority(u) })),
  );
  return new Map(users.map((u) => [u.id, revocationStep(admin, u, now, why.get(u.id))]));
}

/** The person affected reads the decision and its reason; the other admins read proposals and confirmations. */
function refusalMails(
  u: UserRecord,
  by: UserRecord,
  step: RevocationStep,
  reason: string,
  admins: readonly UserRecord[],
  appUrl: string,
  at: string,
): Mail[] {
  const label = roleLabel(u.userRole);
  const revoked = roleStatusOf(u) === 'GRANTED';
  const review = `Review it under Admin → Users: ${appUrl}/admin/users`;
  if (step.kind === 'PROPOSE')
    return [u, ...admins].map((to) => ({
      to: to.email,
      subject: `Firmware Release Portal: revocation of ${to.id === u.id ? 'your role' : `${u.email}'s role`} ${label} proposed`,
      text: [
        `Hello ${to.name},`,
        '',
        `${by.name} (${by.email}) proposed revoking the role ${label} of ${to.id === u.id ? 'your account' : u.email}: ${step.why}. It is revoked only when a second administrator confirms, until ${revocationExpiresAt(at)} (UTC).`,
        `Reason given: ${reason}`,
        '',
        to.id === u.id ? `Sign in: ${appUrl}/login` : review,
      ].join('\n'),
    }));
  const confirmed = step.kind === 'CONFIRM' ? step.proposal : undefined;
  const what = revoked ? 'revoked' : 'refused';
  const person: Mail = {
    to: u.email,
    subject: `Firmware Release Portal: your role ${label} was ${what}`,
    text: [
      `Hello ${u.name},`,
      '',
      `${by.name} (${by.email}) ${what} your role ${label}${confirmed ? `, confirming the proposal of ${confirmed.proposedByName}` : ''}. Your account can sign in and see its own settings, nothing else. Choose another role in Settings, or talk to an administrator.`,
      `Reason given: ${reason}`,
      ...(confirmed && confirmed.reason !== reason ? [`Reason of the proposal: ${confirmed.reason}`] : []),
      '',
      `Sign in: ${appUrl}/login`,
    ].join('\n'),
  };
  // a revocation confirmed by a second admin: the other admins hear it ended, as they heard it proposed
  const others: Mail[] = confirmed
    ? admins.map((a) => ({
        to: a.email,
        subject: `Firmware Release Portal: the role ${label} of ${u.email} was revoked`,
        text: [
          `Hello ${a.name},`,
          '',
          `${by.name} (${by.email}) revoked the role ${label} of ${u.email}, confirming the proposal of ${confirmed.proposedByName} (${confirmed.proposedByEmail}).`,
          `Reason given: ${reason}`,
          '',
          review,
        ].join('\n'),
      }))
    : [];
  return [person, ...others];
}
