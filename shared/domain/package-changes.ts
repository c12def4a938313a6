import { compareHeaders, type HeaderFieldChange, type ListChange } from './header-changes';
import type { PackageDccValues, PackageResourceFile, PackageStatus, PackageType } from './model/package';
import type { ResourceType } from './model/resource';

/**
 * "Changes since the last approved package" (decision 245): what differs between a package
 * and the last approved package for the same device (DCC device id) and resource type. Pure: the
 * service finds the previous package (decision 246) and hands both here.
 */

/**
 * A package counts as approved once it reached APPROVED or a later state of the approved path: signed,
 * in delivery, delivered, or delivery rejected (the release stays approved and signed; only that delivery
 * was refused and it may be re-delivered). REJECTED, drafts, packages still in a round or generating are
 * not approved; a deleted package is gone.
 */
export const APPROVED_STATUSES = [
  'APPROVED',
  'SIGNED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
] as const satisfies readonly PackageStatus[];

export function isApproved(status: PackageStatus): boolean {
  return (APPROVED_STATUSES as readonly PackageStatus[]).includes(status);
}

/** What a package needs for the comparison: its fields as the review page shows them, and its header. */
export interface ComparedPackage {
  id: string;
  name: string;
  type: PackageType;
  status: PackageStatus;
  resourceType: ResourceType;
  resourceName: string;
  dccId?: string;
  dcc?: PackageDccValues;
  resourceFile?: PackageResourceFile;
  header: unknown;
  approvers:
    | Record<string, { approved: boolean; decidedAt?: string }>
    | { approved: boolean; decidedAt?: string }[];
}

/**
 * When the package was approved: the last approval vote of its approval round (the moment every approver
 * had approved). Undefined for a package that is not approved (or approved without recorded times).
 */
export function approvalTime(p: Pick<ComparedPackage, 'status' | 'approvers'>): string | undefined {
  if (!isApproved(p.status)) return undefined;
  const entries = Array.isArray(p.approvers) ? p.approvers : Object.values(p.approvers);
  let last: string | undefined;
  for (const a of entries) if (a.approved && a.decidedAt && (!last || a.decidedAt > last)) last = a.decidedAt;
  return last;
}

/**
 * The index key a package is found by as "approved for a device and resource type": resource type
 * first (a fixed word without '#'), so any device id is unambiguous after it. Undefined without a DCC copy.
 */
export function approvedForKey(p: Pick<ComparedPackage, 'resourceType' | 'dcc'>): string | undefined {
  return p.dcc?.deviceId === undefined ? undefined : `${p.resourceType}#${p.dcc.deviceId}`;
}

/** A file pinned for review (decisions 190/191; the SBOM): its size and SHA-256 on both sides. */
export interface FileChange {
  file: 'payload' | 'metadata' | 'sbom';
  old: { fileName?: string; sizeBytes?: number; sha256?: string } | null;
  new: { fileName?: string; sizeBytes?: number; sha256?: string } | null;
  sameDigest: boolean;
  sameSize: boolean;
}

/** A DCC value (the package's DCC copy, decision 192) that differs. */
export interface DccChange {
  field: 'dccId' | 'deviceId' | 'telemetryType' | 'messageLimit' | 'deviceLimit';
  old: string | number | null;
  new: string | number | null;
}

/** A build provenance value or SBOM fact that differs (decision 277). */
export interface BuildChange {
  field: 'repository' | 'commit' | 'buildId' | 'builder' | 'sbomFormat' | 'sbomComponents';
  old: string | number | null;
  new: string | number | null;
}

export interface PreviousPackage {
  id: string;
  name: string;
  status: PackageStatus;
  type: PackageType;
  resourceName: string;
  approvedAt?: string;
}

/** The answer of GET /packages/{id}/changes. */
export interface PackageChanges {
  packageId: string;
  resourceType: ResourceType;
  /** the device the comparison is for; null when the package has no DCC yet (nothing to compare by) */
  deviceId: string | null;
  /** null: no earlier approved package for this device and resource type */
  previous: PreviousPackage | null;
  header: HeaderFieldChange[];
  lists: ListChange[];
  files: FileChange[];
  dcc: DccChange[];
  /**
   * the build provenance and SBOM facts that differ; the SBOM's digest is among `files`.
   * Absent in answers of servers older than build provenance and SBOMs (decision 277).
   */
  build?: BuildChange[];
  /** false when the headers could not be read as header documents (then `header`/`lists` are empty) */
  headerCompared: boolean;
}

function fileChange(file: FileChange['file'], o: FileChange['old'], n: FileChange['new']): FileChange | null {
  if (!o && !n) return null;
  return {
    file,
    old: o,
    new: n,
    sameDigest: !!o?.sha256 && o.sha256 === n?.sha256,
    sameSize: o?.sizeBytes !== undefined && o.sizeBytes === n?.sizeBytes,
  };
}

/** The pinned payload and metadata (decisions 190/191), both always listed so the reviewer sees the digests. */
export function compareFiles(o?: PackageResourceFile, n?: PackageResourceFile): FileChange[] {
  const out: FileChange[] = [];
  const payload = (f?: PackageResourceFile) =>
    f ? { fileName: f.fileName, sizeBytes: f.sizeBytes, sha256: f.sha256 } : null;
  const metadata = (f?: PackageResourceFile) =>
    f && (f.metadataSha256 !== undefined || f.metadataSizeBytes !== undefined)
      ? {
          ...(f.metadataSizeBytes !== undefined ? { sizeBytes: f.metadataSizeBytes } : {}),
          ...(f.metadataSha256 !== undefined ? { sha256: f.metadataSha256 } : {}),
        }
      : null;
  const p = fileChange('payload', payload(o), payload(n));
  if (p) out.push(p);
  const m = fileChange('metadata', metadata(o), metadata(n));
  if (m) out.push(m);
  const sbom = (f?: PackageResourceFile) =>
    f?.sbom ? { fileName: f.sbom.fileName, sizeBytes: f.sbom.sizeBytes, sha256: f.sbom.sha256 } : null;
  const s = fileChange('sbom', sbom(o), sbom(n));
  if (s) out.push(s);
  return out;
}

const PROVENANCE_FIELDS = ['repository', 'commit', 'buildId', 'builder'] as const;

/**
 * The build provenance and SBOM facts that differ: each provenance value, the SBOM's format
 * and spec version, and its component count. A side without provenance or SBOM is null.
 */
export function compareBuild(o?: PackageResourceFile, n?: PackageResourceFile): BuildChange[] {
  const out: BuildChange[] = [];
  for (const f of PROVENANCE_FIELDS) {
    const ov = o?.provenance?.[f] ?? null;
    const nv = n?.provenance?.[f] ?? null;
    if (ov !== nv) out.push({ field: f, old: ov, new: nv });
  }
  const format = (f?: PackageResourceFile) => (f?.sbom ? `${f.sbom.format} ${f.sbom.specVersion}` : null);
  if (format(o) !== format(n)) out.push({ field: 'sbomFormat', old: format(o), new: format(n) });
  const count = (f?: PackageResourceFile) => f?.sbom?.componentCount ?? null;
  if (count(o) !== count(n)) out.push({ field: 'sbomComponents', old: count(o), new: count(n) });
  return out;
}

const DCC_FIELDS = ['deviceId', 'telemetryType', 'messageLimit', 'deviceLimit'] as const;

/** The DCC copies' values that differ (and the DCC id, when another DCC row was attached). */
export function compareDcc(
  o: { dccId?: string; dcc?: PackageDccValues },
  n: { dccId?: string; dcc?: PackageDccValues },
): DccChange[] {
  const out: DccChange[] = [];
  if ((o.dccId ?? null) !== (n.dccId ?? null))
    out.push({ field: 'dccId', old: o.dccId ?? null, new: n.dccId ?? null });
  for (const f of DCC_FIELDS) {
    const ov = o.dcc?.[f] ?? null;
    const nv = n.dcc?.[f] ?? null;
    if (ov !== nv) out.push({ field: f, old: ov, new: nv });
  }
  return out;
}

/** The whole comparison of `current` against `previous` (null: there is no earlier approved package). */
export function packageChanges(current: ComparedPackage, previous: ComparedPackage | null): PackageChanges {
  const base = {
    packageId: current.id,
    resourceType: current.resourceType,
    deviceId: current.dcc?.deviceId ?? null,
  };
  if (!previous)
    return { ...base, previous: null, header: [], lists: [], files: [], dcc: [], headerCompared: false };
  const h = compareHeaders(previous.header, current.header);
  const approvedAt = approvalTime(previous);
  return {
    ...base,
    previous: {
      id: previous.id,
      name: previous.name,
      status: previous.status,
      type: previous.type,
      resourceName: previous.resourceName,
      ...(approvedAt ? { approvedAt } : {}),
    },
    header: h.header,
    lists: h.lists,
    files: compareFiles(previous.resourceFile, current.resourceFile),
    dcc: compareDcc(previous, current),
    build: compareBuild(previous.resourceFile, current.resourceFile),
    headerCompared: h.compared,
  };
}

export {
  cellsOf,
  compareHeaders,
  type EntryCells,
  type HeaderFieldChange,
  type ListChange,
  type ValueCells,
} from './header-changes';
