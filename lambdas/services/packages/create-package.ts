import { randomUUID } from 'node:crypto';
import { type GeneratePackage, type Package, resourceFileOf } from '../../../shared/api/contracts/packages';
import { BadRequestError, ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { INITIAL_STATUS } from '../../../shared/domain/package-lifecycle';
import { isSignedType, stageOfType } from '../../../shared/domain/package-rules';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';
import { toPackage, userRef } from './package-deps';
import { copyFrom, sourcePackage } from './start-from';

/** Creates a DRAFT package from a resource (spec §2.4): the initiator is the caller. */
export async function createPackage(
  core: PackageCore,
  user: UserRecord,
  resourceId: string,
  req: GeneratePackage,
): Promise<Package> {
  const resource = await core.d.resources.getById(resourceId);
  if (!resource) throw new NotFoundError(PACKAGE_ERR.resourceNotFound);
  if (stageOfType(req.packageType) !== resource.resourceStage) {
    throw new BadRequestError(PACKAGE_ERR.wrongStage(resource.resourceStage));
  }
  if (req.fromPackageId && req.header !== undefined) throw new BadRequestError(PACKAGE_ERR.headerAndSource);
  // the source first: a bad one changes nothing
  const source = req.fromPackageId ? await sourcePackage(core, req.fromPackageId, resource) : null;
  const now = core.now().toISOString();
  const base = {
    id: randomUUID(),
    name: req.packageName,
    type: req.packageType,
    status: INITIAL_STATUS,
    resourceId: resource.id,
    resourceName: resource.name,
    resourceType: resource.resourceType,
    resourceStage: resource.resourceStage,
    resourceFile: resourceFileOf(resource, await metadataPin(core, resource)),
    initiator: userRef(user),
    uploader: { id: resource.uploadedBy.id, name: resource.uploadedBy.name },
    uploadTime: resource.uploadTime,
    note: req.note,
    signed: isSignedType(req.packageType),
    approvers: {},
    approverCount: 0,
    approvedCount: 0,
    deliveryApprovers: {},
    deliveryApproverCount: 0,
    deliveryApprovedCount: 0,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const initial = core.d.header.initial(base, resource);
  // header as code: the editor's rules, before anything is stored (400 naming every field)
  const header =
    req.header === undefined ? initial : core.d.header.update(initial, req.header, base, resource);
  const fresh: PackageRecord = { ...base, header };
  const pkg = source ? await copyFrom(core, fresh, source, resource) : fresh;
  const events = [
    core.event(pkg, user, 'PACKAGE_CREATED', AUDIT_MEANING.created(pkg.type, resource.name), {
      resourceSha256: resource.sha256,
      ...(pkg.resourceFile?.metadataSha256 ? { metadataSha256: pkg.resourceFile.metadataSha256 } : {}),
    }),
  ];
  const c = pkg.copiedFrom;
  if (c)
    events.push(
      core.event(
        pkg,
        user,
        'PACKAGE_STARTED_FROM',
        AUDIT_MEANING.startedFrom(c.name, c.status, c.fields.length, c.dcc?.deviceId),
        { fromPackageId: c.id, fields: c.fields, ...(c.dcc ? { dccId: c.dcc.dccId } : {}) },
      ),
    );
  // the package, its name claim, the reference on its resource and its events: one transaction
  const created = await core.d.packages.create(pkg, { events });
  if (created === 'nameTaken') throw new ConflictError(PACKAGE_ERR.nameTaken(pkg.name));
  if (created === 'resourceGone') throw new NotFoundError(PACKAGE_ERR.resourceNotFound);
  return toPackage(pkg);
}

/**
 * A model's metadata file as the package pins it for review (decision 190): the size and SHA-256 recorded
 * at upload, or, for a model uploaded before they were recorded, the stored file's, read once now.
 */
async function metadataPin(
  core: PackageCore,
  resource: ResourceRecord,
): Promise<{ sizeBytes: number; sha256: string } | undefined> {
  if (!resource.metadataKey) return undefined;
  if (resource.metadataSha256 && resource.metadataSizeBytes !== undefined)
    return { sizeBytes: resource.metadataSizeBytes, sha256: resource.metadataSha256 };
  if (!core.d.metadataDigest)
    throw new Error('No metadata digest reader is plugged into this Lambda (composition-storage.ts)');
  return core.d.metadataDigest()(resource);
}
