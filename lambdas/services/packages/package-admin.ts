import type { PackageDeletionRequest, PackageStatus, UserRef } from '../../../shared/api/contracts/packages';
import { PACKAGE_STATUSES, proofOf } from '../../../shared/api/contracts/packages';
import {
  DELETION_TEXT,
  type DeletionProposal,
  deletionExpiresAt,
  deletionSignature,
  deletionStep,
} from '../../../shared/domain/deletion-proposals';
import { BadRequestError, ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { holdsAuthority } from '../../../shared/domain/identity';
import {
  isInFlight,
  type PackageTombstone,
  signatureNeededMessage,
  waitingOn,
} from '../../../shared/domain/package-deletion';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import {
  DELETION_REASON_REQUIRED,
  type SignatureMethod,
  signatureRecord,
} from '../../../shared/domain/signature-meanings';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { MAIL_TEXTS } from './mail-texts';
import type { PackageCore } from './package-core';
import { userRef } from './package-deps';

/** The statuses a plain (unsigned) deletion may delete in: none in flight. */
const NOT_IN_FLIGHT: readonly PackageStatus[] = PACKAGE_STATUSES.filter((s) => !isInFlight(s));

/**
 * An admin deletes packages in any status (the lifecycle's `delete` row): each with its tasks, name claim
 * and generated file. Unknown ids refuse the whole call before anything is deleted.
 *
 * Decisions 196–198: a package in flight (people wait on it for approval, signature, generation
 * or delivery) is deleted only by an electronic signature — the admin's password and a reason; the plain
 * list is refused with 400 and nothing is deleted. The signed deletion mails everyone waiting on it, and
 * records the signature, the reason and who was told in the audit event. Every deletion keeps a tombstone
 * (who, when, why, name), so a later link to the package says what happened to it.
 */
export async function deletePackages(
  core: PackageCore,
  admin: UserRecord,
  req: PackageDeletionRequest,
  sourceIp: string,
): Promise<{ outcome: 'DELETED' | 'PROPOSED'; message?: string }> {
  const ids = [...new Set(req.ids)];
  const found = await Promise.all(ids.map((id) => core.d.packages.get(id)));
  const missing = ids.filter((id) => !found.some((p) => p?.id === id));
  if (missing.length) throw new NotFoundError(`No package with id ${missing.join(', ')}`);
  const packages = found as PackageRecord[];
  const proof = proofOf(req);
  const signed = Object.keys(proof).length > 0;
  const inFlight = packages.filter((p) => isInFlight(p.status));
  if (inFlight.length && !signed)
    throw new BadRequestError(signatureNeededMessage(inFlight.map((p) => p.name)));
  // a delivered package's record takes two admins (decision 336): signed, proposed, then confirmed
  const delivered = packages.filter((p) => p.status === 'DELIVERED');
  if (delivered.length && !signed)
    throw new BadRequestError(
      DELETION_TEXT.signatureNeeded(
        `a delivered package's record (${delivered.map((p) => `'${p.name}'`).join(', ')})`,
      ),
    );
  const steps = new Map(delivered.map((p) => [p.id, deletionStep(admin, p, core.now())]));
  const own = delivered.filter((p) => steps.get(p.id)?.kind === 'OWN_PROPOSAL');
  if (own.length) throw new ConflictError(DELETION_TEXT.ownProposal(own.map((p) => p.name)));
  let method: SignatureMethod = 'password';
  if (signed) {
    if (!req.reason) throw new BadRequestError(DELETION_REASON_REQUIRED);
    // the signer first: a wrong proof (403) or a throttled account (429) deletes nothing
    method = await core.confirmSignature(admin, { proof, sourceIp });
  }
  const proposed = delivered.filter((p) => steps.get(p.id)?.kind === 'PROPOSE');
  for (const p of proposed) await proposeDeletion(core, admin, p, req.reason ?? '', method);
  for (const p of packages.filter((x) => !proposed.includes(x))) {
    const step = steps.get(p.id);
    const confirmed = step?.kind === 'CONFIRM' ? step.proposal : undefined;
    const at = core.now().toISOString();
    const tombstone: PackageTombstone = {
      id: p.id,
      name: p.name,
      status: p.status,
      deletedAt: at,
      deletedBy: { id: admin.id, name: admin.name, userRole: admin.userRole },
      ...(req.reason ? { reason: req.reason } : {}),
    };
    // a delivered package's people (and the other admins) heard of the proposal: they hear of its end
    const told = confirmed ? await deliveredPeople(core, admin, p) : waitingOn(p);
    const mails = told.map((u) =>
      core.mail(p, p.version, 'PACKAGE_DELETED', u, MAIL_TEXTS.deleted(u, p, tombstone, core.d.appUrl)),
    );
    const signedHere = signed && isInFlight(p.status);
    const event = core.event(
      p,
      admin,
      'PACKAGE_DELETED',
      confirmed
        ? `${AUDIT_MEANING.delete}, confirming the proposal of ${confirmed.proposedByName} (${confirmed.proposedByEmail})`
        : signedHere
          ? AUDIT_MEANING.deleteInFlight
          : AUDIT_MEANING.delete,
      {
        ...(signedHere ? { signature: signatureRecord('deletePackage', admin, at, undefined, method) } : {}),
        ...(confirmed
          ? {
              proposedBy: confirmed.proposedById,
              proposedAt: confirmed.proposedAt,
              proposalReason: confirmed.reason,
              signature: deletionSignature('confirmDeletion', admin, at, method),
            }
          : {}),
        ...(req.reason ? { reason: req.reason } : {}),
        ...(told.length ? { notified: told.map((u) => ({ id: u.id, name: u.name, email: u.email })) } : {}),
      },
    );
    // the package's rows, its tombstone, the mails and the event: one transaction (decision 283)
    const outcome = await core.d.packages.delete(p, {
      tombstone,
      mails,
      events: [event],
      // a plain deletion must not delete a package that went in flight since it was read; a confirmed
      // one only the delivered package that was proposed
      ...(confirmed ? { onlyIn: ['DELIVERED'] } : signed ? {} : { onlyIn: NOT_IN_FLIGHT }),
    });
    if (outcome === 'moved')
      throw confirmed
        ? new ConflictError(`Package '${p.name}' is no longer delivered; reload and try again`)
        : new BadRequestError(PACKAGE_ERR.wentInFlight(p.name));
    if (outcome === 'gone') continue; // another admin deleted it meanwhile, and recorded it
    // the record first, then the file: a crash in between leaves a file nothing names, never a package
    // naming a missing file
    if (p.artefact) await core.d.artefacts().remove(p.artefact);
  }
  return proposed.length
    ? { outcome: 'PROPOSED', message: DELETION_TEXT.proposed(proposed.map((p) => p.name)) }
    : { outcome: 'DELETED' };
}

/** Who hears of a delivered package's deletion: its initiator, its deliverer and the admins but the actor. */
async function deliveredPeople(core: PackageCore, admin: UserRecord, p: PackageRecord): Promise<UserRef[]> {
  const admins = (await core.d.users.listByRole('ADMIN')).filter((a) => holdsAuthority(a)).map(userRef);
  const people = [p.initiator, p.deliverer, ...admins];
  const seen = new Set<string>([admin.id]);
  return people.filter((u): u is UserRef => !!u && !seen.has(u.id) && !!seen.add(u.id));
}

/** The first admin's signed deletion of a delivered package: the proposal, its event and its mails, one commit. */
async function proposeDeletion(
  core: PackageCore,
  admin: UserRecord,
  p: PackageRecord,
  reason: string,
  method: SignatureMethod,
): Promise<void> {
  const at = core.now().toISOString();
  const proposal: DeletionProposal = {
    proposedById: admin.id,
    proposedByName: admin.name,
    proposedByEmail: admin.email,
    proposedAt: at,
    reason,
  };
  const next: PackageRecord = { ...p, deletionProposal: proposal, updatedAt: at, version: p.version + 1 };
  const expiresAt = deletionExpiresAt(at);
  const told = await deliveredPeople(core, admin, p);
  const event = core.event(
    p,
    admin,
    'PACKAGE_DELETION_PROPOSED',
    'proposes deleting the delivered package and its generated files; it is deleted once a second administrator confirms',
    {
      reason,
      expiresAt,
      signature: deletionSignature('proposeDeletion', admin, at, method),
      ...(told.length ? { notified: told.map((u) => ({ id: u.id, name: u.name, email: u.email })) } : {}),
    },
  );
  const mails = told.map((u) =>
    core.mail(
      p,
      next.version,
      'PACKAGE_DELETION_PROPOSED',
      u,
      MAIL_TEXTS.deletionProposed(u, p, admin, expiresAt, reason, core.d.appUrl),
    ),
  );
  if (
    !(await core.d.packages.save(
      next,
      { version: p.version, status: 'DELIVERED' },
      { events: [event], mails },
    ))
  )
    throw new ConflictError(`Package '${p.name}' was changed meanwhile; reload and try again`);
}
