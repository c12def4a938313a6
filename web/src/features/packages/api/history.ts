import { type HistoryEvent, historyEventSchema } from '@shared/domain/audit-event';
import { z } from 'zod';
import { type ApiResult, callApi, parseJsonText } from '@/lib/api-client/api-client';

export type { HistoryEvent };

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
  const events = z.array(historyEventSchema).safeParse(parseJsonText(result.data.history, z.unknown(), []));
  // a malformed trail is an error the page shows, never a silently shorter record
  if (!events.success)
    return {
      ok: false,
      status: 502,
      error: { errorMessage: 'The audit trail the server sent cannot be read' },
    };
  return {
    ...result,
    data: {
      events: events.data,
      chainIntact: result.data.chainIntact !== false,
      brokenAtSeq: result.data.brokenAtSeq,
    },
  };
}
