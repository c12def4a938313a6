import { createHash } from 'node:crypto';
import { ConflictError } from '../../../shared/domain/errors';
import {
  approvalTime,
  approvedForKey,
  type PackageChanges,
  packageChanges,
} from '../../../shared/domain/package-changes';
import type { SignatureMethod } from '../../../shared/domain/signature-meanings';
import { MSG } from '../../../shared/messages';
import type { PackageCore } from './package-core';

/**
 * "Changes since the last approved package" of one package (decisions 245–246): the newest
 * approved package for the same device (its DCC copy's device id) and resource type, found by the
 * byApprovedDevice index; an already approved package is compared with the one approved before it.
 * A package without a DCC copy has no device yet: there is nothing to compare it with.
 */
export async function changesOf(core: PackageCore, id: string): Promise<PackageChanges> {
  const p = await core.mustGet(id);
  const key = approvedForKey(p);
  if (!key) return packageChanges(p, null);
  const before = approvalTime(p);
  const previous = await core.d.packages.lastApproved(key, { exceptId: p.id, ...(before ? { before } : {}) });
  return packageChanges(p, previous);
}

/** JSON with the keys of every object sorted: the same comparison always gives the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * The digest of a comparison (decision 266): SHA-256 of what it says differs and against which package
 * (its id, not its state or name: a previous package that is delivered meanwhile still is the same base).
 */
export function changesDigest(c: PackageChanges): string {
  const substance = {
    packageId: c.packageId,
    resourceType: c.resourceType,
    deviceId: c.deviceId,
    previousId: c.previous?.id ?? null,
    header: c.header,
    lists: c.lists,
    files: c.files,
    dcc: c.dcc,
    headerCompared: c.headerCompared,
  };
  return createHash('sha256').update(canonical(substance), 'utf8').digest('hex');
}

/** What a decision's audit record keeps of the comparison (decision 266). */
export interface ChangesSeenRecord {
  /** the previous approved package's id, or 'none' */
  previousPackageId: string;
  previousPackageName?: string;
  /** the digest of the comparison at the deciding call */
  digest: string;
  /** true: the deciding page showed this very comparison (its digest came with the decision) */
  seenOnPage: boolean;
}

/** The audit details a reviewed decision adds. */
export type ChangesSeenDetails = { changesSeen: ChangesSeenRecord };
/** How the signer of a decision was confirmed, for its audit event (decision 322). */
export type SignedBy = { signatureMethod: SignatureMethod };
/** What a signed decision's audit event adds: how it was signed and, on a review page, the comparison seen. */
export type DecisionDetails = Partial<ChangesSeenDetails> & SignedBy;

/**
 * The comparison a decision is taken on (decision 266): recomputed at the deciding call; when the page
 * sent the digest it showed, a different one is refused (409: reload and review again), nothing changes.
 */
export async function seenChanges(
  core: PackageCore,
  id: string,
  stated: string | undefined,
): Promise<ChangesSeenDetails> {
  const changes = await changesOf(core, id);
  const digest = changesDigest(changes);
  if (stated !== undefined && stated !== digest) throw new ConflictError(MSG.changesStale);
  return {
    changesSeen: {
      previousPackageId: changes.previous?.id ?? 'none',
      ...(changes.previous ? { previousPackageName: changes.previous.name } : {}),
      digest,
      seenOnPage: stated !== undefined,
    },
  };
}
