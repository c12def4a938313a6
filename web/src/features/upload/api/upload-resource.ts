import type { ResourceType, Stage } from '@shared/api/contracts/resources';
import { env } from '@/config/env';
import { type ApiResult, apiUrl, callApi, reportFailure, routePath } from '@/lib/api-client/api-client';
import { sendWithProgress } from '@/lib/api-client/send-with-progress';
import { type MultipartDeps, uploadMultipart } from './multipart-upload';

export interface UploadInput {
  type: ResourceType;
  stage: Stage;
  name: string;
  resourceFile: File;
  /** models only */
  metadataFile?: File | null;
}

const STORAGE_UNREACHABLE =
  'The file could not be sent to the file storage (no answer, or the browser blocked the request)';

/** The statuses the upload form shows itself (spec §8): 406 warning popup, 409 under the name field. */
const HANDLED = [406, 409] as const;

/**
 * Waits before the confirmation is sent again after 503 (storage or database did not answer) or no
 * answer at all: the file is already in storage and the API keeps it for another try, so a short
 * outage costs a few seconds instead of sending a large file again. The last failure is shown.
 */
export const CONFIRM_RETRY_DELAYS_MS = [1000, 3000, 8000];
const passing = (status: number) => status === 503 || status === 0;

export type UploadResult = ApiResult<{ resource?: unknown }>;

/** The check of an accepted upload: bytes hashed of all (decision 173). */
export type OnChecking = (verifiedBytes: number, sizeBytes: number) => void;

/** How often the state of an upload being checked is asked for. */
export const FOLLOW_POLL_MS = 1000;
/** Unanswered state requests in a row before the page gives up following (the check goes on). */
const FOLLOW_MISSES = 10;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Follows an accepted confirmation (202 VERIFYING) until the server has hashed and registered the file,
 * reporting the bytes hashed: REGISTERED answers the resource like the direct upload does; FAILED
 * answers the refusal's status and reason (406 and 409 keep their spec handling on the form).
 */
export async function followUpload(
  uploadId: string,
  onChecking: OnChecking,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<UploadResult> {
  let misses = 0;
  for (;;) {
    const r = await callApi('getResourceUpload', { params: { uploadId } }, { handle: 'all', loader: false });
    if (!r.ok) {
      if (passing(r.status) && ++misses < FOLLOW_MISSES) {
        await wait(FOLLOW_POLL_MS);
        continue;
      }
      return r;
    }
    misses = 0;
    const state = r.data;
    if (state.state === 'REGISTERED') return { ok: true, status: 201, data: { resource: state.resource } };
    if (state.state === 'FAILED')
      return {
        ok: false,
        status: state.statusCode ?? 503,
        error: { errorMessage: state.errorMessage ?? 'The file could not be checked' },
      };
    onChecking(state.verifiedBytes ?? 0, state.sizeBytes ?? 0);
    await wait(FOLLOW_POLL_MS);
  }
}

/**
 * Uploads a patch or a model (spec §7). Up to 4 MiB (both files together) the files go to the API as
 * multipart/form-data; bigger ones go straight to storage by presigned URL and are confirmed after (a
 * direct upload must fit Lambda's 6 MB event once base64-encoded). Both report progress as a fraction of
 * all bytes.
 */
/** Whether these files go to the API directly (multipart) rather than by presigned URL. */
export function sendsDirectly(resourceBytes: number, metadataBytes = 0): boolean {
  return resourceBytes + metadataBytes <= env.directUploadMaxBytes;
}

export function uploadResource(
  input: UploadInput,
  onProgress: (fraction: number) => void,
  onChecking: OnChecking = () => undefined,
): Promise<UploadResult> {
  const total = input.resourceFile.size + (input.metadataFile?.size ?? 0);
  if (sendsDirectly(input.resourceFile.size, input.metadataFile?.size ?? 0))
    return uploadDirect(input, onProgress);
  return input.resourceFile.size >= MULTIPART_FROM_BYTES
    ? uploadInParts(input, onProgress, onChecking)
    : uploadPresigned(input, total, onProgress, onChecking);
}

/**
 * From this size the resource file goes as a presigned multipart upload (up to 10 GiB, parts in
 * parallel, resumable: multipart-upload.ts); below it one presigned PUT is quicker and a dropped
 * connection costs little to send again.
 */
export const MULTIPART_FROM_BYTES = 16 * 1024 * 1024;

/** A PUT to a presigned URL that answers S3's ETag (the bucket's CORS exposes it). */
function putForEtag(
  url: string,
  body: Blob,
  onProgress: (loaded: number) => void,
): ReturnType<MultipartDeps['put']> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded));
    xhr.addEventListener('load', () => {
      const etag = xhr.getResponseHeader('ETag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve({ ok: true, etag });
      else
        resolve({
          ok: false,
          status: xhr.status,
          errorMessage: etag ? `The file storage answered ${xhr.status}` : STORAGE_UNREACHABLE,
        });
    });
    xhr.addEventListener('error', () => resolve({ ok: false, status: 0, errorMessage: STORAGE_UNREACHABLE }));
    xhr.send(body);
  });
}

const multipartDeps = (onChecking: OnChecking): MultipartDeps => ({
  // failures are shown once, by uploadInParts, not by each call
  start: (body) => callApi('startMultipartUpload', { body }, { handle: 'all', loader: false }),
  presign: (uploadId, partNumbers) =>
    callApi(
      'presignUploadParts',
      { params: { uploadId }, body: { partNumbers } },
      { handle: 'all', loader: false },
    ),
  listParts: (uploadId) =>
    callApi('listUploadParts', { params: { uploadId } }, { handle: 'all', loader: false }),
  abort: (uploadId) =>
    callApi('abortResourceUpload', { params: { uploadId } }, { handle: 'all', loader: false }),
  state: (uploadId) =>
    callApi('getResourceUpload', { params: { uploadId } }, { handle: 'all', loader: false }),
  complete: async (uploadId, parts) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= CONFIRM_RETRY_DELAYS_MS.length;
      const done = await callApi(
        'completeMultipartUpload',
        { params: { uploadId }, body: { parts } },
        { handle: 'all' },
      );
      if (done.ok) return followUpload(uploadId, onChecking);
      if (last || !passing(done.status)) return done;
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_RETRY_DELAYS_MS[attempt]));
    }
  },
  put: putForEtag,
  storage: window.localStorage,
});

/** what a stopped multipart upload adds to its message: it is kept, and how to go on */
export const RESUME_HINT =
  'The parts sent so far are kept: choose the same file again and press Upload to send the rest.';

/** What a presigned upload (one PUT or in parts) declares before any byte is sent. */
function declaredUpload(input: UploadInput, metadata: File | null | undefined) {
  return {
    name: input.name,
    resourceType: input.type,
    resourceStage: input.stage,
    fileName: input.resourceFile.name,
    sizeBytes: input.resourceFile.size,
    ...(metadata ? { metadataFileName: metadata.name, metadataSizeBytes: metadata.size } : {}),
  };
}

async function uploadInParts(
  input: UploadInput,
  onProgress: (fraction: number) => void,
  onChecking: OnChecking,
): Promise<UploadResult> {
  const metadata = input.type === 'MODEL' ? (input.metadataFile ?? null) : null;
  const result = await uploadMultipart(
    multipartDeps(onChecking),
    declaredUpload(input, metadata),
    input.resourceFile,
    metadata,
    onProgress,
  );
  if (!result.ok) {
    // a part that got no answer stops the upload, which stays saved in this browser
    const shown =
      result.status === 0 || result.status >= 500
        ? {
            ...result,
            error: { ...result.error, errorMessage: `${result.error.errorMessage}. ${RESUME_HINT}` },
          }
        : result;
    reportFailure(shown, HANDLED);
    return shown;
  }
  return result;
}

function uploadDirect(input: UploadInput, onProgress: (fraction: number) => void): Promise<UploadResult> {
  const form = new FormData();
  form.append('resourceFile', input.resourceFile, input.resourceFile.name);
  if (input.type === 'MODEL' && input.metadataFile)
    form.append('metadataFile', input.metadataFile, input.metadataFile.name);
  return sendWithProgress<{ resource?: unknown }>({
    method: 'POST',
    url: apiUrl(
      routePath(input.type === 'MODEL' ? 'uploadModel' : 'uploadPatch', { stage: input.stage.toLowerCase() }),
      {
        name: input.name,
      },
    ),
    body: form,
    auth: true,
    handle: HANDLED,
    onProgress: ({ loaded, total }) => onProgress(total > 0 ? loaded / total : 0),
  });
}

async function uploadPresigned(
  input: UploadInput,
  total: number,
  onProgress: (fraction: number) => void,
  onChecking: OnChecking,
): Promise<UploadResult> {
  const metadata = input.type === 'MODEL' ? input.metadataFile : null;
  const ticket = await callApi(
    'requestResourceUpload',
    {
      body: declaredUpload(input, metadata),
    },
    { handle: HANDLED, loader: false },
  );
  if (!ticket.ok) return ticket;

  // storage URLs are signed already: no Authorization header on these PUTs
  const put = await sendWithProgress({
    method: 'PUT',
    url: ticket.data.resourceUrl,
    body: input.resourceFile,
    auth: false,
    networkErrorMessage: STORAGE_UNREACHABLE,
    onProgress: ({ loaded }) => onProgress(loaded / total),
  });
  if (!put.ok) return put;
  if (metadata && ticket.data.metadataUrl) {
    const putMetadata = await sendWithProgress({
      method: 'PUT',
      url: ticket.data.metadataUrl,
      body: metadata,
      auth: false,
      networkErrorMessage: STORAGE_UNREACHABLE,
      onProgress: ({ loaded }) => onProgress((input.resourceFile.size + loaded) / total),
    });
    if (!putMetadata.ok) return putMetadata;
  }
  onProgress(1);
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= CONFIRM_RETRY_DELAYS_MS.length;
    const confirmed = await callApi(
      'confirmResourceUpload',
      { params: { uploadId: ticket.data.uploadId } },
      { handle: last ? HANDLED : [...HANDLED, 503, 0] },
    );
    if (confirmed.ok) {
      const done = await followUpload(ticket.data.uploadId, onChecking);
      reportFailure(done, HANDLED);
      return done;
    }
    if (last || !passing(confirmed.status)) return confirmed;
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_RETRY_DELAYS_MS[attempt]));
  }
}
