import type {
  PresignPartsResponse,
  StartMultipartUploadResponse,
  UploadPartsResponse,
  UploadStatus,
} from '@shared/api/contracts/resources';
import { z } from 'zod';
import type { ApiResult } from '@/lib/api-client/api-client';

/**
 * The browser's side of a presigned multipart upload: parts of the file go straight to S3,
 * PARALLEL_PARTS at a time, with progress over all bytes; the upload survives a dropped connection or
 * a reload. Its id and the parts done are kept in localStorage under the file's name, size and
 * lastModified; on resume the server is asked which parts S3 holds (ListParts, the truth: a part the
 * browser saw finish may be gone, one it lost may be there) and only the missing ones are sent.
 * The IO is passed in (`MultipartDeps`), so the resume logic is tested without a network.
 */

export const PARALLEL_PARTS = 4;
/** part URLs asked for at once (the server answers at most 100) */
export const URL_BATCH = 20;
/** tries of one part before the upload stops (it can be resumed later) */
export const PART_TRIES = 3;

export interface UploadRequest {
  name: string;
  resourceType: string;
  resourceStage: string;
  fileName: string;
  sizeBytes: number;
  metadataFileName?: string;
  metadataSizeBytes?: number;
}

export interface SavedUpload {
  uploadId: string;
  /** what the upload was started for: a resume with another name, type or stage starts over */
  name: string;
  resourceType: string;
  resourceStage: string;
  partSizeBytes: number;
  partCount: number;
  metadataSent: boolean;
  /** ETags of the parts sent, by part number */
  etags: Record<number, string>;
}
/** A saved upload as read back from storage (another build's or a hand-edited copy starts over). */
const savedUploadSchema = z.object({
  uploadId: z.string().min(1),
  name: z.string(),
  resourceType: z.string(),
  resourceStage: z.string(),
  partSizeBytes: z.number().int().positive(),
  partCount: z.number().int().positive(),
  metadataSent: z.boolean(),
  etags: z.record(z.string().regex(/^[1-9][0-9]*$/), z.string()),
}) satisfies z.ZodType<SavedUpload, unknown>;

export interface MultipartDeps {
  start(req: UploadRequest): Promise<ApiResult<StartMultipartUploadResponse>>;
  presign(uploadId: string, partNumbers: number[]): Promise<ApiResult<PresignPartsResponse>>;
  listParts(uploadId: string): Promise<ApiResult<UploadPartsResponse>>;
  /** where a saved upload stands on the server (decision 173): a completed one is not sent again */
  state?(uploadId: string): Promise<ApiResult<Pick<UploadStatus, 'state' | 'retryable'>>>;
  abort(uploadId: string): Promise<unknown>;
  complete(
    uploadId: string,
    parts: Array<{ partNumber: number; etag: string }>,
  ): Promise<ApiResult<{ resource?: unknown }>>;
  /** PUTs a body to a presigned URL; answers S3's ETag, or an error result (status 0 = no answer) */
  put(
    url: string,
    body: Blob,
    onProgress: (loaded: number) => void,
  ): Promise<{ ok: true; etag: string } | { ok: false; status: number; errorMessage: string }>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  wait?: (ms: number) => Promise<void>;
}

export type MultipartResult = ApiResult<{ resource?: unknown }>;

/** The key of a file's saved upload: the same file (name, size, last change) resumes it. */
export function resumeKey(file: Pick<File, 'name' | 'size' | 'lastModified'>): string {
  return `frp-upload:${file.name}:${file.size}:${file.lastModified}`;
}

export function loadSaved(storage: MultipartDeps['storage'], key: string): SavedUpload | null {
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const v = savedUploadSchema.safeParse(JSON.parse(raw));
    return v.success ? v.data : null;
  } catch {
    return null;
  }
}

/** Part numbers still to send: all of 1..partCount that S3 does not hold. */
export function missingParts(partCount: number, held: ReadonlyArray<{ partNumber: number }>): number[] {
  const have = new Set(held.map((p) => p.partNumber));
  return Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !have.has(n));
}

/** Bytes of part `n` (1-based) of a file cut in parts of `partSize`. */
export function partRange(n: number, partSize: number, fileSize: number): [number, number] {
  const start = (n - 1) * partSize;
  return [start, Math.min(fileSize, start + partSize)];
}

const failure = (status: number, errorMessage: string): MultipartResult => ({
  ok: false,
  status,
  error: { errorMessage },
});

/**
 * Sends `file` (and a model's metadata file) as a multipart upload, resuming a saved one when the same
 * file was being sent, and completes it. `onProgress` gets the fraction of all bytes in S3.
 */
export async function uploadMultipart(
  deps: MultipartDeps,
  req: UploadRequest,
  file: Blob & Pick<File, 'name' | 'size' | 'lastModified'>,
  metadata: Blob | null,
  onProgress: (fraction: number) => void,
): Promise<MultipartResult> {
  const key = resumeKey(file);
  const wait = deps.wait ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const total = file.size + (metadata?.size ?? 0);
  let saved = loadSaved(deps.storage, key);
  const save = () => saved && deps.storage.setItem(key, JSON.stringify(saved));

  // 1. resume: the saved upload, if it is for this request and S3 still has it
  if (
    saved &&
    (saved.name !== req.name ||
      saved.resourceType !== req.resourceType ||
      saved.resourceStage !== req.resourceStage ||
      (metadata !== null && !saved.metadataSent))
  ) {
    await deps.abort(saved.uploadId);
    saved = null;
  }
  // 1b. completed before (its check failed for a passing reason, or runs still): S3 joined the parts
  //     already, so the same completion is sent again instead of the file (the server answers VERIFYING)
  if (saved && deps.state && Object.keys(saved.etags).length === saved.partCount) {
    const st = await deps.state(saved.uploadId);
    if (st.ok && (st.data.state === 'VERIFYING' || (st.data.state === 'FAILED' && st.data.retryable))) {
      onProgress(1);
      return finish(deps, key, saved);
    }
  }
  if (saved) {
    const held = await deps.listParts(saved.uploadId);
    if (held.ok) {
      // S3 is the truth: the parts it holds, with its ETags
      saved.etags = Object.fromEntries(held.data.parts.map((p) => [p.partNumber, p.etag]));
      save();
    } else if (held.status === 404 || held.status === 403 || held.status === 400) {
      saved = null; // expired, completed or not ours: start over
    } else return held;
  }
  if (!saved) {
    deps.storage.removeItem(key);
    const started = await deps.start(req);
    if (!started.ok) return started;
    saved = {
      uploadId: started.data.uploadId,
      name: req.name,
      resourceType: req.resourceType,
      resourceStage: req.resourceStage,
      partSizeBytes: started.data.partSizeBytes,
      partCount: started.data.partCount,
      metadataSent: false,
      etags: {},
    };
    save();
    if (metadata && started.data.metadataUrl) {
      const sent = await deps.put(started.data.metadataUrl, metadata, () => undefined);
      if (!sent.ok) return failure(sent.status, sent.errorMessage);
      saved.metadataSent = true;
      save();
    }
  }
  const upload = saved;

  // 2. the missing parts, PARALLEL_PARTS at a time, URLs asked for in batches
  const todo = missingParts(
    upload.partCount,
    Object.keys(upload.etags).map((n) => ({ partNumber: Number(n) })),
  );
  const partBytes = (n: number) => {
    const [a, b] = partRange(n, upload.partSizeBytes, file.size);
    return b - a;
  };
  let doneBytes =
    (metadata?.size ?? 0) + Object.keys(upload.etags).reduce((s, n) => s + partBytes(Number(n)), 0);
  const inFlight = new Map<number, number>();
  const report = () => {
    let loaded = doneBytes;
    for (const v of inFlight.values()) loaded += v;
    onProgress(total > 0 ? Math.min(1, loaded / total) : 1);
  };
  report();
  const urls = new Map<number, string>();
  let queue = [...todo];
  let stop: MultipartResult | null = null;

  // one batch of URLs asked for at a time: the workers waiting for URLs share it
  let asking: Promise<void> | null = null;
  const urlFor = async (n: number): Promise<string | null> => {
    while (!urls.has(n) && !stop) {
      if (asking) {
        await asking;
        continue;
      }
      const batch = [n, ...queue.filter((m) => !urls.has(m) && m !== n).slice(0, URL_BATCH - 1)];
      asking = deps.presign(upload.uploadId, batch).then((r) => {
        if (!r.ok) stop ??= r;
        else for (const u of r.data.urls) urls.set(u.partNumber, u.url);
      });
      await asking;
      asking = null;
    }
    return urls.get(n) ?? null;
  };

  const worker = async () => {
    while (!stop && queue.length) {
      const n = queue[0]!;
      queue = queue.slice(1);
      const [a, b] = partRange(n, upload.partSizeBytes, file.size);
      for (let attempt = 1; ; attempt++) {
        const url = await urlFor(n);
        if (!url) return;
        inFlight.set(n, 0);
        const sent = await deps.put(url, file.slice(a, b), (loaded) => {
          inFlight.set(n, loaded);
          report();
        });
        inFlight.delete(n);
        if (sent.ok) {
          upload.etags[n] = sent.etag;
          doneBytes += b - a;
          save();
          report();
          break;
        }
        // an expired URL (403) gets a fresh one; no answer is retried; after PART_TRIES the upload
        // stops and stays saved, to be resumed by choosing the same file again
        urls.delete(n);
        if (attempt >= PART_TRIES || stop) {
          stop ??= failure(sent.status, sent.errorMessage);
          return;
        }
        await wait(1000 * attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, todo.length) }, worker));
  if (stop) return stop;

  return finish(deps, key, upload);
}

/** 3. complete: S3 joins the parts, the server checks size and SHA-256 and registers the resource. */
async function finish(deps: MultipartDeps, key: string, upload: SavedUpload): Promise<MultipartResult> {
  const parts = Array.from({ length: upload.partCount }, (_, i) => ({
    partNumber: i + 1,
    etag: upload.etags[i + 1] ?? '',
  }));
  const done = await deps.complete(upload.uploadId, parts);
  // a refusal ends the upload on the server (nothing kept); a passing failure keeps it for a retry
  if (done.ok || (done.status >= 400 && done.status < 500)) deps.storage.removeItem(key);
  return done;
}
