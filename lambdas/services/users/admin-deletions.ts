import type { PackageDeletionRequest } from '../../../shared/api/contracts/packages';
import { proofOf } from '../../../shared/api/contracts/packages';
import { APPROVAL_POLICY } from '../../../shared/domain/approval-policy';
import {
  DELETION_TEXT,
  type DeletionProposal,
  type DeletionStep,
  deletionExpiresAt,
  deletionSignature,
  deletionStep,
} from '../../../shared/domain/deletion-proposals';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { holdsAuthority } from '../../../shared/domain/identity';
import {
  GOVERNANCE_TEXT,
  governanceSignature,
  secondAdminNeeded,
} from '../../../shared/domain/role-revocations';
import { API_ERR } from '../../../shared/messages';
import type { Mail } from '../../ports/mailer';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, getAllOrNotFound, mailAfterCommit, type UserDeps } from './common';
import { confirmSignature } from './signature-check';

/** What a deletion of users did: all deleted, or (some) administrators' deletions proposed. */
export interface UserDeletionResult {
  outcome: 'DELETED' | 'PROPOSED';
  message?: string;
}

/**
 * DELETE /admin/users: every deletion is an electronic signature with a reason (decision 357). One
 * signed admin deletes an account at once, unless it takes two (an administrator, decision 336; the last
 * holder of a role the approval policy needs, decision 357): then the first admin's call records a
 * proposal (202) and a second admin's identical call deletes it with its event in one commit. Nobody
 * deletes their own account or confirms their own proposal (409); the last administrator is never deleted.
 */
export async function deleteUsers(
  d: UserDeps,
  admin: UserRecord,
  req: PackageDeletionRequest,
  sourceIp: string,
): Promise<UserDeletionResult> {
  if (new Set(req.ids).has(admin.id)) throw new ForbiddenError('You cannot delete your own account');
  const { users: found } = await getAllOrNotFound(d, req.ids);
  await refuseDeletingPendingDeciders(d, found);
  const proof = proofOf(req);
  if (Object.keys(proof).length === 0) {
    const admins = found.filter((u) => u.userRole === 'ADMIN');
    throw new BadRequestError(
      admins.length > 0
        ? DELETION_TEXT.signatureNeeded(
            `an administrator's account (${admins.map((u) => u.email).join(', ')})`,
          )
        : GOVERNANCE_TEXT.signatureNeeded,
    );
  }
  const reason = req.reason;
  if (!reason) throw new BadRequestError(GOVERNANCE_TEXT.deletionReasonRequired);
  const now = d.clock.now();
  const why = await twoAdminsFor(d, found);
  const steps = new Map<string, DeletionStep>(
    found.filter((u) => why.has(u.id)).map((u) => [u.id, deletionStep(admin, u, now)]),
  );
  const own = found.filter((u) => steps.get(u.id)?.kind === 'OWN_PROPOSAL');
  if (own.length > 0) throw new ConflictError(DELETION_TEXT.ownProposal(own.map((u) => u.email)));
  // deleted by this call: everyone but those whose deletion is only proposed
  const goes = found.filter((u) => steps.get(u.id)?.kind !== 'PROPOSE');
  if (goes.some((u) => u.userRole === 'ADMIN')) {
    const leaving = new Set(goes.map((u) => u.id));
    const remaining = (await d.users.listByRole('ADMIN')).filter(
      (a) => !leaving.has(a.id) && holdsAuthority(a),
    );
    if (remaining.length === 0) throw new ConflictError(API_ERR.lastAdmin);
  }
  // the signer last among the checks, first among the changes: a wrong proof (403) changes nothing
  const method = await confirmSignature(d, admin, proof, sourceIp);
  const at = now.toISOString();
  const told: Mail[] = [];
  const others = (await d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a) && a.id !== admin.id);
  // each account with its event (one transaction each, decision 283); one deleted meanwhile by another
  // admin was recorded by them
  for (const u of found) {
    const step = steps.get(u.id);
    const whose = accountWords(u);
    if (step?.kind === 'PROPOSE') {
      const proposal: DeletionProposal = {
        proposedById: admin.id,
        proposedByName: admin.name,
        proposedByEmail: admin.email,
        proposedAt: at,
        reason,
      };
      const event = adminEvent(
        admin,
        u,
        'USER_DELETION_PROPOSED',
        `proposes deleting the ${whose} of ${u.email} (${why.get(u.id)}); it is deleted once a second administrator confirms`,
        {
          userId: u.id,
          email: u.email,
          reason,
          expiresAt: deletionExpiresAt(at),
          signature: deletionSignature('proposeDeletion', admin, at, method),
        },
      );
      const next: UserRecord = { ...u, deletionProposal: proposal, updatedAt: at, version: u.version + 1 };
      if (!(await d.users.updateAll([{ next, expectedVersion: u.version }], { events: [event] })))
        throw new ConflictError(`${u.email} was changed meanwhile; reload and try again`);
      for (const to of [u, ...others.filter((a) => a.id !== u.id)])
        told.push(deletionMail(to, u, admin, proposal, 'PROPOSED', d.config.appUrl));
      continue;
    }
    const confirmed = step?.kind === 'CONFIRM' ? step.proposal : undefined;
    const event = adminEvent(
      admin,
      u,
      'USER_DELETED',
      confirmed
        ? `deletes the ${whose} of ${u.email}, confirming the proposal of ${confirmed.proposedByName} (${confirmed.proposedByEmail}); the email cannot register again`
        : `deletes the account of ${u.email}; the email cannot register again`,
      confirmed
        ? {
            userId: u.id,
            email: u.email,
            reason,
            proposedBy: confirmed.proposedById,
            proposedAt: confirmed.proposedAt,
            proposalReason: confirmed.reason,
            signature: deletionSignature('confirmDeletion', admin, at, method),
          }
        : {
            userId: u.id,
            email: u.email,
            reason,
            signature: governanceSignature('deleteAccount', admin, at, method),
          },
    );
    await d.users.delete(u, at, { events: [event] });
    const record: DeletionProposal = confirmed ?? {
      proposedById: admin.id,
      proposedByName: admin.name,
      proposedByEmail: admin.email,
      proposedAt: at,
      reason,
    };
    // the person reads why; the other admins hear of a confirmed two-admin deletion, as of its proposal
    const to = confirmed ? [u, ...others.filter((a) => a.id !== u.id)] : [u];
    for (const m of to)
      told.push(deletionMail(m, u, admin, record, confirmed ? 'DELETED' : 'DELETED_NOW', d.config.appUrl));
  }
  for (const m of told) await mailAfterCommit(d, m);
  const proposed = found.filter((u) => steps.get(u.id)?.kind === 'PROPOSE');
  return proposed.length > 0
    ? { outcome: 'PROPOSED', message: DELETION_TEXT.proposed(proposed.map((u) => u.email)) }
    : { outcome: 'DELETED' };
}

const accountWords = (u: UserRecord) => (u.userRole === 'ADMIN' ? 'administrator account' : 'account');

/** Which accounts take two admins, and why: the approval policy's quorum over every holder of their roles. */
async function twoAdminsFor(d: UserDeps, users: readonly UserRecord[]): Promise<Map<string, string>> {
  const roles = [
    ...new Set(users.filter((u) => holdsAuthority(u) && u.userRole !== 'ADMIN').map((u) => u.userRole)),
  ];
  const holders = (await Promise.all(roles.map((r) => d.users.listByRole(r)))).flat().filter(holdsAuthority);
  return secondAdminNeeded(
    APPROVAL_POLICY,
    holders,
    users.map((u) => ({ id: u.id, userRole: u.userRole, holds: holdsAuthority(u) })),
  );
}

/** To the person concerned or another admin: a deletion was proposed, confirmed, or done by one admin. */
function deletionMail(
  to: UserRecord,
  subject: UserRecord,
  by: UserRecord,
  proposal: DeletionProposal,
  what: 'PROPOSED' | 'DELETED' | 'DELETED_NOW',
  appUrl: string,
): Mail {
  const yours = to.id === subject.id;
  const whose = yours ? `your ${accountWords(subject)}` : `the ${accountWords(subject)} of ${subject.email}`;
  const done = {
    PROPOSED: `${by.name} (${by.email}) proposed deleting ${whose}. It is deleted only when a second administrator confirms, until ${deletionExpiresAt(proposal.proposedAt)} (UTC).`,
    DELETED: `${by.name} (${by.email}) deleted ${whose}, confirming the proposal of ${proposal.proposedByName} (${proposal.proposedByEmail}).`,
    DELETED_NOW: `${by.name} (${by.email}) deleted ${whose}. You can no longer sign in, and the address cannot register again.`,
  }[what];
  return {
    to: to.email,
    subject:
      what === 'PROPOSED'
        ? `Firmware Release Portal: deletion of ${yours ? 'your account' : subject.email} proposed`
        : `Firmware Release Portal: ${yours ? 'your account was' : `${subject.email} was`} deleted`,
    text: [
      `Hello ${to.name},`,
      '',
      done,
      `Reason given: ${proposal.reason}`,
      '',
      yours
        ? 'If this is not expected, talk to another administrator or your quality lead now.'
        : `Review it under Admin → Users: ${appUrl}/admin/users`,
    ].join('\n'),
  };
}

/** No package may be left waiting for someone who no longer exists: such users are kept (409). */
async function refuseDeletingPendingDeciders(d: UserDeps, users: UserRecord[]): Promise<void> {
  if (!d.pendingDecisions) throw new Error('user deletion needs the pending-decisions port');
  const pending = d.pendingDecisions;
  const waiting = await Promise.all(
    users.map(async (u) => ({ u, names: await pending.packagesWaitingFor(u.id) })),
  );
  const blocked = waiting.filter((w) => w.names.length > 0);
  if (blocked.length > 0)
    throw new ConflictError(
      `Cannot delete: ${blocked
        .map(
          (w) =>
            `${w.u.email} is awaited as approver or signer of ${w.names.map((n) => `'${n}'`).join(', ')}`,
        )
        .join('; ')}. Delete those packages or let them be decided first.`,
    );
}
