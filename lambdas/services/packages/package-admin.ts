import type { PackageDeletionRequest, PackageStatus } from '../../../shared/api/contracts/packages';
import { PACKAGE_STATUSES, proofOf } from '../../../shared/api/contracts/packages';
import { BadRequestError, NotFoundError } from '../../../shared/domain/errors';
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
): Promise<void> {
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
  let method: SignatureMethod = 'password';
  if (signed) {
    if (!req.reason) throw new BadRequestError(DELETION_REASON_REQUIRED);
    // the signer first: a wrong proof (403) or a throttled account (429) deletes nothing
    method = await core.confirmSignature(admin, { proof, sourceIp });
  }
  for (const p of packages) {
    const at = core.now().toISOString();
    const tombstone: PackageTombstone = {
      id: p.id,
      name: p.name,
      status: p.status,
      deletedAt: at,
      deletedBy: { id: admin.id, name: admin.name, userRole: admin.userRole },
      ...(req.reason ? { reason: req.reason } : {}),
    };
    const told = waitingOn(p);
    const mails = told.map((u) =>
      core.mail(p, p.version, 'PACKAGE_DELETED', u, MAIL_TEXTS.deleted(u, p, tombstone, core.d.appUrl)),
    );
    const signedHere = signed && isInFlight(p.status);
    const event = core.event(
      p,
      admin,
      'PACKAGE_DELETED',
      signedHere ? AUDIT_MEANING.deleteInFlight : AUDIT_MEANING.delete,
      {
        ...(signedHere ? { signature: signatureRecord('deletePackage', admin, at, undefined, method) } : {}),
        ...(req.reason ? { reason: req.reason } : {}),
        ...(told.length ? { notified: told.map((u) => ({ id: u.id, name: u.name, email: u.email })) } : {}),
      },
    );
    // the package's rows, its tombstone, the mails and the event: one transaction (decision 283)
    const outcome = await core.d.packages.delete(p, {
      tombstone,
      mails,
      events: [event],
      // a plain deletion must not delete a package that went in flight since it was read
      ...(signed ? {} : { onlyIn: NOT_IN_FLIGHT }),
    });
    if (outcome === 'moved') throw new BadRequestError(PACKAGE_ERR.wentInFlight(p.name));
    if (outcome === 'gone') continue; // another admin deleted it meanwhile, and recorded it
    // the record first, then the file: a crash in between leaves a file nothing names, never a package
    // naming a missing file
    if (p.artefact) await core.d.artefacts().remove(p.artefact);
  }
}
