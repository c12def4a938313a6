import type { ChainedEvent } from '@shared/domain/audit-event';
import type { AuditFilter, ChainState } from '@shared/domain/audit-search';
import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';

/** One page of the audit trail as the screen shows it (decision 348). */
export interface AuditPage {
  events: ChainedEvent[];
  nextCursor: string | null;
  examined: number;
  chains: ChainState[];
}

const eventList = {
  safeParse: (v: unknown) =>
    Array.isArray(v) && v.every((e) => typeof e === 'object' && e !== null && 'seq' in e && 'hash' in e)
      ? { success: true as const, data: v as ChainedEvent[] }
      : { success: false as const },
};

/** Only the filter's set fields go into the query string. */
const present = (f: AuditFilter): Record<string, string> =>
  Object.fromEntries(
    Object.entries(f).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  );

/** GET /admin/audit: one page, newest first, after `cursor` (a 400 — a bad filter — is shown by the screen). */
export async function auditPage(
  filter: AuditFilter,
  limit: number,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<ApiResult<AuditPage>> {
  const query = { ...present(filter), limit: String(limit), ...(cursor ? { cursor } : {}) };
  const r = await callApi('auditEvents', { query } as never, { signal, handle: [400] });
  return readAnswer(r, (d) => ({
    ...d,
    events: parseJsonText(d.events, eventList, [] as ChainedEvent[]) ?? [],
  }));
}

/** POST /admin/audit/export: the filtered view as a file, handed to the browser's download. */
export async function exportAudit(filter: AuditFilter, format: 'CSV' | 'PDF') {
  const r = await callApi('exportAudit', { body: { ...present(filter), format } } as never, {
    handle: [400, 413],
  });
  if (!r.ok) return r;
  const bytes = Uint8Array.from(atob(r.data.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: r.data.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = r.data.fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return r;
}
