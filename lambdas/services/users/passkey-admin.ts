import type { SignatureProof } from '../../../shared/api/contracts/packages';
import type { PasskeyView } from '../../../shared/api/contracts/passkeys';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import {
  liveRemovalProposal,
  PASSKEY_REMOVAL_MEANINGS,
  PASSKEY_TEXT,
  type PasskeyRemovalAction,
  removalExpiresAt,
  removalStep,
} from '../../../shared/domain/passkeys';
import { roleLabel } from '../../../shared/domain/roles';
import type { SignatureMethod } from '../../../shared/domain/signature-meanings';
import type { PasskeyRecord } from '../../ports/passkey-repository';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, toPublicUser, type UserDeps } from './common';
import { passkeyPorts } from './passkey-ceremony';
import { passkeyView } from './passkeys';
import { confirmSignature } from './signature-check';

/**
 * The admins' side of passkeys (decision 323): each user's sign-in methods, and the removal of a lost
 * passkey by two admins, like a role grant: one proposes (signed), a second, different one confirms
 * (signed); the removal ends the owner's sessions. Nobody removes their own passkey this way.
 */

const adminView = (p: PasskeyRecord, now: Date): PasskeyView => {
  const r = liveRemovalProposal(p, now);
  return {
    ...passkeyView(p),
    ...(r
      ? {
          removalProposal: {
            proposedBy: { id: r.proposedById, name: r.proposedByName, email: r.proposedByEmail },
            proposedAt: r.proposedAt,
            expiresAt: removalExpiresAt(r.proposedAt),
            reason: r.reason,
          },
        }
      : {}),
  };
};

async function mustGetUser(d: UserDeps, id: string): Promise<UserRecord> {
  const u = await d.users.getById(id);
  if (!u) throw new NotFoundError(`No user with id ${id}`);
  return u;
}

/** How a user signs in: the password (every account has one today) and their passkeys. */
export async function signInMethodsOf(d: UserDeps, userId: string) {
  const user = await mustGetUser(d, userId);
  const passkeys = await passkeyPorts(d).store.getAll(user.passkeyIds ?? []);
  const now = d.clock.now();
  return {
    user: toPublicUser(user),
    password: user.passwordHash !== '',
    passkeys: passkeys.map((p) => adminView(p, now)),
  };
}

/** The signature of an admin's step, as the audit trail records it (the shape of package signatures). */
const removalSignature = (
  action: PasskeyRemovalAction,
  admin: UserRecord,
  signedAt: string,
  method: SignatureMethod,
) => ({
  action,
  meaning: PASSKEY_REMOVAL_MEANINGS[action],
  printedName: admin.name,
  role: admin.userRole,
  roleLabel: roleLabel(admin.userRole),
  signedAt,
  authenticatedBy: method,
});

export async function decidePasskeyRemoval(
  d: UserDeps,
  admin: UserRecord,
  userId: string,
  passkeyId: string,
  req: { proof: SignatureProof; reason: string },
  sourceIp: string,
): Promise<{ outcome: 'PROPOSED' | 'REMOVED'; passkeys: PasskeyView[] }> {
  const owner = await mustGetUser(d, userId);
  const { store } = passkeyPorts(d);
  const passkey = await store.get(passkeyId);
  if (!passkey || passkey.userId !== owner.id || !(owner.passkeyIds ?? []).includes(passkeyId))
    throw new NotFoundError(PASSKEY_TEXT.notFound);
  const now = d.clock.now();
  const step = removalStep(admin, owner, passkey, now);
  if (step.kind === 'REFUSED') throw new ForbiddenError(step.reason);
  // the signature: checked once every input is known good, before anything changes
  const method = await confirmSignature(d, admin, req.proof, sourceIp);
  const at = now.toISOString();
  const facts = {
    userId: owner.id,
    email: owner.email,
    passkeyId,
    passkeyName: passkey.name,
    reason: req.reason,
  };
  if (step.kind === 'PROPOSE') {
    const proposal = {
      proposedById: admin.id,
      proposedByName: admin.name,
      proposedByEmail: admin.email,
      proposedAt: at,
      reason: req.reason,
    };
    const proposed = adminEvent(
      admin,
      owner,
      'PASSKEY_REMOVAL_PROPOSED',
      `proposes removing the passkey "${passkey.name}" of ${owner.email}; it is removed once a second administrator confirms`,
      {
        ...facts,
        expiresAt: removalExpiresAt(at),
        signature: removalSignature('proposeRemoval', admin, at, method),
      },
    );
    // the proposal and its event commit together (decision 283)
    if (!(await store.update(passkeyId, owner.id, { removalProposal: proposal }, { events: [proposed] })))
      throw new NotFoundError(PASSKEY_TEXT.notFound);
  } else {
    const next: UserRecord = {
      ...owner,
      passkeyIds: (owner.passkeyIds ?? []).filter((x) => x !== passkeyId),
      tokenVersion: owner.tokenVersion + 1,
      updatedAt: at,
      version: owner.version + 1,
    };
    const removed = adminEvent(
      admin,
      owner,
      'PASSKEY_REMOVED',
      `removes the passkey "${passkey.name}" of ${owner.email}, confirming the proposal of ${step.proposal.proposedByName} (${step.proposal.proposedByEmail}); the account's sessions end`,
      {
        ...facts,
        removedBy: 'admins',
        proposedBy: step.proposal.proposedById,
        proposedAt: step.proposal.proposedAt,
        proposalReason: step.proposal.reason,
        signature: removalSignature('confirmRemoval', admin, at, method),
      },
    );
    if (!(await store.remove(passkey, next, owner.version, { events: [removed] })))
      throw new ConflictError('The account was changed meanwhile; reload and try again');
  }
  const after = await signInMethodsOf(d, owner.id);
  return { outcome: step.kind === 'PROPOSE' ? 'PROPOSED' : 'REMOVED', passkeys: after.passkeys };
}
