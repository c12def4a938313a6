import type { UploadStatus } from '../../shared/api/contracts/resources';
import { type ApiResult, api } from './api';

/**
 * Confirm and complete answer 202 VERIFYING; the SHA-256 and the registration run off the request
 * (decision 173). This follows an accepted confirmation the way the SPA does: polls
 * GET /resources/uploads/{uploadId} until the upload is REGISTERED or FAILED (60 s at most) and
 * answers that last state. The 202 itself is checked first.
 */
export async function settled(
  token: string | undefined,
  accepted: ApiResult<Record<string, unknown>>,
  {
    timeoutMs = 60_000,
    /** how the state is asked for (a test with its own stack passes its own caller) */
    call = api as (path: string, opts: { token?: string }) => Promise<ApiResult<Record<string, unknown>>>,
  } = {},
): Promise<UploadStatus> {
  if (accepted.status !== 202 || accepted.body.state !== 'VERIFYING')
    throw new Error(`expected 202 VERIFYING, got ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const uploadId = String(accepted.body.uploadId);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = (await call(`/resources/uploads/${uploadId}`, { token })) as unknown as ApiResult<UploadStatus>;
    if (r.status !== 200) throw new Error(`upload state: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body.state === 'REGISTERED' || r.body.state === 'FAILED') return r.body;
    if (Date.now() > until) throw new Error(`upload ${uploadId} still ${r.body.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
