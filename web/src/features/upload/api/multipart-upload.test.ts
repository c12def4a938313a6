import { describe, expect, it } from 'vitest';
import {
  loadSaved,
  type MultipartDeps,
  missingParts,
  PARALLEL_PARTS,
  partRange,
  resumeKey,
  type UploadRequest,
  uploadMultipart,
} from './multipart-upload';

/**
 * The resume logic of the multipart uploader against an in-memory stand-in of the server and S3 (the
 * real round trip is test/integration/multipart-upload.test.ts): what is saved, what is asked, which
 * parts go again.
 */

const PART = 10;
const file = Object.assign(new Blob([new Uint8Array(35).map((_, i) => i)]), {
  name: 'fw.bin',
  lastModified: 1_700_000_000_000,
});
const req: UploadRequest = {
  name: 'fw-1',
  resourceType: 'PATCH',
  resourceStage: 'DEV',
  fileName: 'fw.bin',
  sizeBytes: 35,
};

class MemoryStorage {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

/** A server + S3 of one multipart upload at a time; `failPut` decides which PUTs get no answer. */
function fakeServer(storage = new MemoryStorage()) {
  const s = {
    storage,
    uploads: new Map<string, Map<number, { etag: string; bytes: Uint8Array }>>(),
    calls: [] as string[],
    puts: [] as number[],
    inFlight: 0,
    maxInFlight: 0,
    failPut: (_n: number) => false,
    completed: null as null | Array<{ partNumber: number; etag: string }>,
  };
  let next = 0;
  const deps: MultipartDeps = {
    storage,
    wait: async () => undefined,
    start: async () => {
      s.calls.push('start');
      const id = `up-${++next}`;
      s.uploads.set(id, new Map());
      return {
        ok: true,
        status: 201,
        data: { uploadId: id, partSizeBytes: PART, partCount: 4, expiresAt: '' },
      };
    },
    presign: async (id, nums) => {
      s.calls.push(`presign ${nums.join(',')}`);
      return {
        ok: true,
        status: 200,
        data: { urls: nums.map((n) => ({ partNumber: n, url: `s3://${id}/${n}` })), expiresAt: '' },
      };
    },
    listParts: async (id) => {
      s.calls.push(`list ${id}`);
      const parts = s.uploads.get(id);
      if (!parts) return { ok: false, status: 404, error: { errorMessage: 'Upload not found or expired' } };
      return {
        ok: true,
        status: 200,
        data: {
          partSizeBytes: PART,
          partCount: 4,
          parts: [...parts].map(([n, p]) => ({ partNumber: n, sizeBytes: p.bytes.length, etag: p.etag })),
        },
      };
    },
    abort: async (id) => {
      s.calls.push(`abort ${id}`);
      s.uploads.delete(id);
    },
    complete: async (id, parts) => {
      s.calls.push(`complete ${id}`);
      s.completed = parts;
      const held = s.uploads.get(id)!;
      const ok = parts.every((p) => held.get(p.partNumber)?.etag === p.etag);
      return ok
        ? { ok: true, status: 201, data: { resource: '{}' } }
        : { ok: false, status: 400, error: { errorMessage: 'bad ETag' } };
    },
    put: async (url, body, onProgress) => {
      const [, id, n] = /^s3:\/\/([^/]+)\/(\d+)$/.exec(url)!;
      const part = Number(n);
      s.inFlight++;
      s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
      await new Promise((r) => setTimeout(r, 1));
      s.inFlight--;
      if (s.failPut(part)) return { ok: false, status: 0, errorMessage: 'no answer' };
      const bytes = new Uint8Array(await body.arrayBuffer());
      onProgress(bytes.length);
      s.puts.push(part);
      const etag = `"etag-${id}-${part}-${bytes[0]}"`;
      s.uploads.get(id!)!.set(part, { etag, bytes });
      return { ok: true, etag };
    },
  };
  return { s, deps };
}

describe('multipart uploader', () => {
  it('cuts the file in parts of the given size, the last one shorter', () => {
    expect([1, 2, 3, 4].map((n) => partRange(n, PART, 35))).toEqual([
      [0, 10],
      [10, 20],
      [20, 30],
      [30, 35],
    ]);
    expect(missingParts(4, [{ partNumber: 2 }, { partNumber: 4 }])).toEqual([1, 3]);
    expect(resumeKey(file)).toBe('frp-upload:fw.bin:35:1700000000000');
  });

  it('sends every part, at most PARALLEL_PARTS at once, completes in order and forgets the upload', async () => {
    const { s, deps } = fakeServer();
    const progress: number[] = [];
    const r = await uploadMultipart(deps, req, file, null, (f) => progress.push(f));
    expect(r.ok).toBe(true);
    expect([...s.puts].sort()).toEqual([1, 2, 3, 4]);
    expect(s.maxInFlight).toBeLessThanOrEqual(PARALLEL_PARTS);
    expect(s.completed?.map((p) => p.partNumber)).toEqual([1, 2, 3, 4]);
    expect(s.calls.filter((c) => c.startsWith('presign'))).toHaveLength(1);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(s.storage.map.size).toBe(0);
  });

  it('keeps a dropped upload saved, and on resume sends only the parts S3 does not hold', async () => {
    const { s, deps } = fakeServer();
    s.failPut = (n) => n === 3;
    const first = await uploadMultipart(deps, req, file, null, () => undefined);
    expect(first).toMatchObject({ ok: false, status: 0 });
    const saved = loadSaved(s.storage, resumeKey(file));
    expect(saved).toMatchObject({ uploadId: 'up-1', partCount: 4, name: 'fw-1' });
    expect(Object.keys(saved!.etags).map(Number).sort()).toEqual([1, 2, 4]);

    // the connection is back (or the page was reloaded): the same file resumes
    s.failPut = () => false;
    s.puts = [];
    s.calls = [];
    const progress: number[] = [];
    const second = await uploadMultipart(deps, req, file, null, (f) => progress.push(f));
    expect(second.ok).toBe(true);
    expect(s.calls[0]).toBe('list up-1');
    expect(s.calls).not.toContain('start');
    expect(s.puts).toEqual([3]);
    expect(progress[0]).toBe(25 / 35); // parts 1, 2 and 4 were already there
    expect(s.completed?.map((p) => p.etag)).toEqual(
      [1, 2, 3, 4].map((n) => `"etag-up-1-${n}-${(n - 1) * PART}"`),
    );
    expect(s.storage.map.size).toBe(0);
  });

  it('believes S3, not its own record: a part S3 lost is sent again', async () => {
    const { s, deps } = fakeServer();
    s.failPut = (n) => n === 4;
    await uploadMultipart(deps, req, file, null, () => undefined);
    s.uploads.get('up-1')!.delete(2);
    s.failPut = () => false;
    s.puts = [];
    expect((await uploadMultipart(deps, req, file, null, () => undefined)).ok).toBe(true);
    expect([...s.puts].sort()).toEqual([2, 4]);
  });

  it('starts over when the saved upload expired on the server', async () => {
    const { s, deps } = fakeServer();
    s.failPut = (n) => n === 1;
    await uploadMultipart(deps, req, file, null, () => undefined);
    s.uploads.delete('up-1'); // expired and swept
    s.failPut = () => false;
    s.calls = [];
    expect((await uploadMultipart(deps, req, file, null, () => undefined)).ok).toBe(true);
    expect(s.calls.slice(0, 2)).toEqual(['list up-1', 'start']);
    expect(s.calls.at(-1)).toBe('complete up-2');
  });

  it('cancels the saved upload when the same file is sent under another name', async () => {
    const { s, deps } = fakeServer();
    s.failPut = (n) => n === 2;
    await uploadMultipart(deps, req, file, null, () => undefined);
    s.failPut = () => false;
    s.calls = [];
    const r = await uploadMultipart(deps, { ...req, name: 'fw-2' }, file, null, () => undefined);
    expect(r.ok).toBe(true);
    expect(s.calls.slice(0, 2)).toEqual(['abort up-1', 'start']);
    expect(s.uploads.has('up-1')).toBe(false);
  });

  it('forgets the upload when the server refuses the completion (it keeps nothing either)', async () => {
    const { s, deps } = fakeServer();
    deps.complete = async () => ({ ok: false, status: 400, error: { errorMessage: 'refused' } });
    const r = await uploadMultipart(deps, req, file, null, () => undefined);
    expect(r).toMatchObject({ ok: false, status: 400 });
    expect(s.storage.map.size).toBe(0);
  });

  it('a completed upload whose check failed for a passing reason is completed again, not sent again', async () => {
    const { s, deps } = fakeServer();
    // all parts arrive, then the server's check fails after its retries (storage did not answer)
    const complete = deps.complete;
    deps.complete = async () => ({
      ok: false,
      status: 503,
      error: { errorMessage: 'The file could not be checked' },
    });
    const first = await uploadMultipart(deps, req, file, null, () => undefined);
    expect(first).toMatchObject({ ok: false, status: 503 });
    expect(loadSaved(s.storage, resumeKey(file))?.uploadId).toBe('up-1');
    // S3 joined the parts already: they are no longer listed; the server says the check may be retried
    deps.complete = complete;
    deps.state = async () => ({ ok: true, status: 200, data: { state: 'FAILED', retryable: true } });
    s.calls = [];
    s.puts = [];
    const progress: number[] = [];
    const second = await uploadMultipart(deps, req, file, null, (f) => progress.push(f));
    expect(second.ok).toBe(true);
    expect(s.calls).toEqual(['complete up-1']);
    expect(s.puts).toEqual([]);
    expect(progress).toEqual([1]);
    expect(s.storage.map.size).toBe(0);
  });

  it('asks for the parts as before when the saved upload is still being sent', async () => {
    const { s, deps } = fakeServer();
    s.failPut = (n) => n === 2;
    await uploadMultipart(deps, req, file, null, () => undefined);
    deps.state = async () => ({ ok: true, status: 200, data: { state: 'UPLOADING' } });
    s.failPut = () => false;
    s.calls = [];
    expect((await uploadMultipart(deps, req, file, null, () => undefined)).ok).toBe(true);
    // not all parts were sent: the state is not even asked; S3's list decides
    expect(s.calls[0]).toBe('list up-1');
  });

  it('reads a saved upload only when it has the shape it was saved with (parsed, never cast)', () => {
    const storage = new MemoryStorage();
    const key = resumeKey(file);
    const saved = {
      uploadId: 'up-9',
      name: 'fw-1',
      resourceType: 'FIRMWARE',
      resourceStage: 'dev',
      partSizeBytes: PART,
      partCount: 4,
      metadataSent: true,
      etags: { 1: '"e1"', 3: '"e3"' },
    };
    storage.setItem(key, JSON.stringify(saved));
    expect(loadSaved(storage, key)).toEqual({ ...saved, etags: { '1': '"e1"', '3': '"e3"' } });
    for (const broken of [
      { ...saved, partCount: '4' },
      { ...saved, metadataSent: undefined },
      { ...saved, etags: { first: '"e1"' } },
      { ...saved, uploadId: '' },
      [saved],
    ]) {
      storage.setItem(key, JSON.stringify(broken));
      expect(loadSaved(storage, key), JSON.stringify(broken)).toBeNull();
    }
    storage.setItem(key, '{not json');
    expect(loadSaved(storage, key)).toBeNull();
  });
});
