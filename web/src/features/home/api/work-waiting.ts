import type { Package } from '@shared/api/contracts/packages';
import { packageSchema } from '@shared/api/contracts/records';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';

const packages = z.array(packageSchema);

/** The kinds of work the home page lists, in the order it shows them. */
export type WorkKind = 'stalled' | 'approval' | 'delivery' | 'signature' | 'rejected' | 'draft';
export const WORK_KINDS: readonly WorkKind[] = [
  'stalled',
  'approval',
  'delivery',
  'signature',
  'rejected',
  'draft',
];

export type WorkWaiting = Record<WorkKind, Package[]> & {
  /** per stalled package: whom it waits on who left their role, in words (decision 351) */
  departures: Record<string, string[]>;
};

const stalledSchema = z.array(
  z.object({ package: packageSchema, departures: z.array(z.object({ text: z.string() }).loose()) }),
);

/** What waits for the caller as initiator (an admin: every package): stalled on someone who left, rejected. */
const attention = async (
  signal: AbortSignal,
): Promise<ApiResult<{ stalled: z.infer<typeof stalledSchema>; rejected: Package[] }>> => {
  const r = await callApi('listAttentionPackages', {}, { signal });
  return readAnswer(r, (d) => ({
    stalled: parseJsonText(d.stalled, stalledSchema, []),
    rejected: parseJsonText(d.rejected, packages, []),
  }));
};

const list = async (
  id: 'listApprovalPackages' | 'listSigningPackages',
  stage: string,
  signal: AbortSignal,
): Promise<ApiResult<Package[]>> => {
  const r = await callApi(id, { params: { stage } }, { signal });
  return readAnswer(r, (d) => parseJsonText(d.packages, packages, []));
};

/** The caller's own drafts of a stage: read by the server's index, not by reading every package. */
const drafts = async (stage: string, signal: AbortSignal): Promise<ApiResult<Package[]>> => {
  const r = await callApi('listPackages', { params: { stage }, query: { drafts: 'mine' } }, { signal });
  return readAnswer(r, (d) => parseJsonText(d.packages, packages, []));
};

/**
 * Everything that waits for this user, from the lists the server already filters for them (DESIGN §2:
 * approval and signing lists show a user only what waits for them): approvals of both stages, delivery
 * approvals, signatures of both stages, and their own drafts (`?drafts=mine`: the server reads only the
 * caller's DRAFTs, by an index). `decides`: whether the user holds a granted role; without one nothing
 * can wait for their decision, so only their drafts are read. One failed call fails the whole (the popups report it).
 */
export async function getWorkWaiting(
  userId: string,
  decides: boolean,
  signal: AbortSignal,
): Promise<ApiResult<WorkWaiting>> {
  const none = async (): Promise<ApiResult<Package[]>> => ({ ok: true, status: 200, data: [] });
  const calls = await Promise.all([
    decides ? list('listApprovalPackages', 'dev', signal) : none(),
    decides ? list('listApprovalPackages', 'release', signal) : none(),
    decides ? list('listApprovalPackages', 'deliver', signal) : none(),
    decides ? list('listSigningPackages', 'dev', signal) : none(),
    decides ? list('listSigningPackages', 'release', signal) : none(),
    drafts('dev', signal),
    drafts('release', signal),
  ]);
  const failed = calls.find((r) => !r.ok);
  if (failed && !failed.ok) return failed;
  const owned = await attention(signal);
  if (!owned.ok) return owned;
  const [aDev, aRel, aDel, sDev, sRel, pDev, pRel] = calls.map((r) => (r.ok ? r.data : []));
  const mine = (p: Package) => p.status === 'DRAFT' && p.initiator.id === userId;
  return {
    ok: true,
    status: 200,
    data: {
      approval: [...(aDev ?? []), ...(aRel ?? [])],
      delivery: aDel ?? [],
      signature: [...(sDev ?? []), ...(sRel ?? [])],
      draft: [...(pDev ?? []), ...(pRel ?? [])].filter(mine),
      stalled: owned.data.stalled.map((x) => x.package),
      rejected: owned.data.rejected,
      departures: Object.fromEntries(
        owned.data.stalled.map((x) => [x.package.id, x.departures.map((d) => d.text)]),
      ),
    },
  };
}
