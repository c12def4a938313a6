import type { CopiedFrom, PackageSource, PackageStatus } from '../../../shared/api/contracts/packages';
import { dccValuesOf } from '../../../shared/api/contracts/packages';
import type { Resource } from '../../../shared/api/contracts/resources';
import { BadRequestError, NotFoundError } from '../../../shared/domain/errors';
import { defaultPackageName, freeName } from '../../../shared/domain/package-names';
import { packageSourceOf } from '../../../shared/domain/package-source';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import type { PackageCore } from './package-core';
import { packageNotFound } from './package-core';

/**
 * "start from a previous package" (decision 240): the earlier packages a new package of a resource may copy its
 * header and DCC choice from, and the copy itself. Candidates are the packages of the same resource (the
 * `byResource` index) and of the same device exactly: every package of the same resource type whose DCC
 * copy names one of the resource's devices (decision 268). Never a Scan.
 */

/** Statuses a package reaches once its approval round decided: a rejected or an approved package. */
const DECIDED: readonly PackageStatus[] = [
  'REJECTED',
  'APPROVED',
  'AWAITING_SIGNATURE',
  'GENERATING',
  'SIGNED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
];
/** How many same-device packages of other resources are offered at most (newest first). */
const OTHER_RESOURCES_MAX = 50;

export interface PackageSources {
  packages: PackageSource[];
  /** the one proposed: the latest rejected or approved package, or null */
  proposedId: string | null;
  /** the default name, made free of the names of these packages (`…_2` after a rejection) */
  freeName: string;
}

/**
 * Every package of resource type `type` whose DCC copy names one of `devices`: the DCCs of those device ids
 * (the DCC list is small, admin-managed), then each DCC's packages (`byDcc`), kept only when their own DCC
 * copy still names the device (a copy is taken when the DCC is attached; decision 192).
 */
async function packagesOfDevices(
  core: PackageCore,
  devices: Set<string>,
  type: ResourceRecord['resourceType'],
): Promise<PackageRecord[]> {
  if (devices.size === 0) return [];
  const dccIds = (await core.d.dccs.list()).filter((d) => devices.has(d.deviceId)).map((d) => d.id);
  const found = (await Promise.all(dccIds.map((id) => core.d.packages.listByDcc(id)))).flat();
  return found.filter(
    (p) => p.resourceType === type && p.dcc?.deviceId !== undefined && devices.has(p.dcc.deviceId),
  );
}

/**
 * `deviceId` (optional): a device the user names on step 1, so that a new resource (no package, so no device
 * of its own yet) is offered that device's packages too (decision 268).
 */
export async function packageSources(
  core: PackageCore,
  resourceId: string,
  deviceId?: string,
): Promise<PackageSources> {
  const resource = await core.d.resources.getById(resourceId);
  if (!resource) throw new NotFoundError(PACKAGE_ERR.resourceNotFound);
  const own = await core.d.packages.listByResource(resource.id);
  const ownIds = new Set(own.map((p) => p.id));
  // the resource's devices, exactly as its packages' DCC copies name them (a new resource has none yet),
  // and the device the user named
  const devices = new Set(own.flatMap((p) => (p.dcc?.deviceId ? [p.dcc.deviceId] : [])));
  if (deviceId) devices.add(deviceId);
  const others = (await packagesOfDevices(core, devices, resource.resourceType))
    .filter((p, i, list) => !ownIds.has(p.id) && list.findIndex((q) => q.id === p.id) === i)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, OTHER_RESOURCES_MAX);
  const all = [...own, ...others].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const proposed = all.find((p) => DECIDED.includes(p.status)) ?? null;
  return {
    packages: all.map((p) => packageSourceOf(p, resource.id)),
    proposedId: proposed?.id ?? null,
    freeName: freeName(
      defaultPackageName(resource as Resource),
      own.map((p) => p.name),
    ),
  };
}

/**
 * The source package of a new one: it must exist (a deleted one answers with its tombstone's 404), and be
 * of the same resource type (one header means the same on a patch and on a model only by accident).
 */
export async function sourcePackage(
  core: PackageCore,
  fromPackageId: string,
  resource: ResourceRecord,
): Promise<PackageRecord> {
  const source = await core.d.packages.get(fromPackageId);
  if (!source) {
    const gone = await packageNotFound(core.d.packages, fromPackageId);
    // a package that never existed is a bad input of this call, not a missing resource
    throw gone.message === PACKAGE_ERR.packageNotFound
      ? new BadRequestError(PACKAGE_ERR.sourceNotFound(fromPackageId))
      : gone;
  }
  if (source.resourceType !== resource.resourceType)
    throw new BadRequestError(PACKAGE_ERR.sourceOtherType(source.resourceType, resource.resourceType));
  return source;
}

/** Names of the editable fields whose value differs between two headers of the same template. */
export function changedFields(template: unknown, copied: unknown): string[] {
  const fieldsOf = (h: unknown) =>
    ((h as { fields?: { name: string; type: string; value: unknown }[] })?.fields ?? []).filter(
      (f) => f.type !== 'fixed',
    );
  const before = new Map(fieldsOf(template).map((f) => [f.name, JSON.stringify(f.value)]));
  return fieldsOf(copied)
    .filter((f) => before.get(f.name) !== JSON.stringify(f.value))
    .map((f) => f.name);
}

/**
 * The new package with the source's header values (the computed fields recomputed for the new package's
 * type and resource) and its DCC choice, when that DCC still exists; `copiedFrom` says what was copied.
 */
export async function copyFrom(
  core: PackageCore,
  pkg: PackageRecord,
  source: PackageRecord,
  resource: ResourceRecord,
): Promise<PackageRecord> {
  const header = core.d.header.update(pkg.header, source.header, pkg, resource);
  const dcc = source.dccId ? await core.d.dccs.get(source.dccId) : null;
  const copiedFrom: CopiedFrom = {
    id: source.id,
    name: source.name,
    status: source.status,
    fields: changedFields(pkg.header, header),
    ...(dcc && source.dccId
      ? { dcc: { dccId: source.dccId, deviceId: dcc.deviceId, telemetryType: dcc.telemetryType } }
      : {}),
  };
  return {
    ...pkg,
    header,
    copiedFrom,
    ...(dcc && source.dccId ? { dccId: source.dccId, dcc: dccValuesOf(dcc) } : {}),
  };
}
