import { type ApiResult, callApi, parseJsonText } from '@/lib/api-client/api-client';

/** One event of a package's audit trail (the approval record). */
export interface HistoryEvent {
  seq: number;
  at: string;
  action: string;
  meaning: string;
  actorId?: string;
  actorName: string;
  actorRole: string;
  details?: Record<string, unknown>;
}

export interface PackageHistory {
  events: HistoryEvent[];
  /** false when an event was altered or removed (the hash chain is broken) */
  chainIntact: boolean;
  brokenAtSeq?: number | null;
}

/** GET /packages/{id}/history: `history` is JSON text; `chainIntact` the verdict of the hash chain. */
export async function getHistory(id: string, signal?: AbortSignal): Promise<ApiResult<PackageHistory>> {
  const result = await callApi('packageHistory', { params: { id } }, { signal, loader: false });
  if (!result.ok) return result;
  return {
    ...result,
    data: {
      events: parseJsonText<HistoryEvent[]>(result.data.history, []),
      chainIntact: result.data.chainIntact !== false,
      brokenAtSeq: result.data.brokenAtSeq,
    },
  };
}
