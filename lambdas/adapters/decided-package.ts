import type { Decision } from '../../shared/domain/approval-policy';
import { ROUNDS, type RoundName } from '../../shared/domain/package-lifecycle';
import type { PackageRecord } from '../ports/package-repository';

/**
 * The package as one approver's decision alone leaves it (both package adapters build it the same way
 * before the service plans what commits with it): the voter's entry decided at `at`, an approval counted,
 * a rejection moving the package to the round's rejected status with the note, the version moved on.
 * Only called for a decision the policy allows on `p` (voteRefusal is null), so the entry exists.
 */
export function decidedPackage(
  p: PackageRecord,
  userId: string,
  round: RoundName,
  decision: Decision,
  at: string,
  note = '',
): PackageRecord {
  const r = ROUNDS[round];
  const list = structuredClone(p[r.list]);
  const entry = list[userId]!;
  if (decision === 'approve') {
    list[userId] = { ...entry, approved: true, decidedAt: at };
    return { ...p, [r.list]: list, [r.votes]: p[r.votes] + 1, updatedAt: at, version: p.version + 1 };
  }
  list[userId] = { ...entry, rejected: true, rejectionNote: note, decidedAt: at };
  return {
    ...p,
    [r.list]: list,
    rejectionNote: note,
    status: r.rejected,
    updatedAt: at,
    version: p.version + 1,
  };
}
