import { type Header, type HeaderError, headerFieldSchema } from '@shared/domain/header/header-schema';
import { z } from 'zod';

/** `header` as the server answers it: the fields it stored (checked whole by the server). */
const headerAnswer = z.object({ fields: z.array(headerFieldSchema) });
/** A 400's `headerErrors`: one problem per field path (header-rules.ts); anything else reads as none. */
const headerErrorsAnswer = z.array(z.object({ field: z.string(), message: z.string() }));

import { type ApiResult, callApi, parseJsonText, readAnswer } from '@/lib/api-client/api-client';

/** GET /packages/{id}/header: `header` is JSON text of { fields } (spec §7, docs/package-format.md). */
export async function getHeader(id: string, signal?: AbortSignal): Promise<ApiResult<Header>> {
  const result = await callApi('getHeader', { params: { id } }, { signal });
  return readAnswer(result, (d) => parseJsonText(d.header, headerAnswer, { fields: [] }));
}

export type SaveHeaderResult =
  | { ok: true; header: Header }
  | { ok: false; status: number; errorMessage: string; headerErrors: HeaderError[] };

/**
 * PATCH /packages/{id}/header with the header as JSON text. The server recomputes Type, sizes and the
 * CRC and ignores fixed fields; a 400 lists `headerErrors` per field, 403/409 say why it cannot change.
 */
export async function saveHeader(
  id: string,
  header: Header,
  opts: { background?: boolean } = {},
): Promise<SaveHeaderResult> {
  // an autosave runs without the loader overlay and reports every failure itself
  const result = await callApi(
    'updateHeader',
    { params: { id }, body: { header: JSON.stringify(header) } },
    opts.background ? { loader: false, handle: 'all' } : { handle: [400, 403, 404, 409] },
  );
  if (result.ok) {
    const read = readAnswer(result, (d) => parseJsonText(d.header, headerAnswer, header));
    return read.ok
      ? { ok: true, header: read.data }
      : { ok: false, status: read.status, errorMessage: read.error.errorMessage, headerErrors: [] };
  }
  const errors = headerErrorsAnswer.safeParse(result.error.headerErrors);
  return {
    ok: false,
    status: result.status,
    errorMessage: result.error.errorMessage,
    headerErrors: errors.success ? errors.data : [],
  };
}
