import { createHash } from 'node:crypto';
import type { StoredFile, StoredFilePin } from '../../../shared/domain/stored-file';
import { StoredFileMismatch } from '../../ports/artefact-service';
import type { BlobStore } from '../../ports/blob-store';
import type { ArtefactRef } from '../../ports/package-repository';

/**
 * The checks of decision 302: a generated package's stored files are what generation wrote. Two pins, two
 * kinds of check:
 *   - the SHA-256 of every byte this code reads (and serves) is compared with the record: always, in AWS
 *     and on the local stack alike;
 *   - where the bucket keeps versions (AWS), the current version must be the one generation wrote, and
 *     reads and presigned URLs ask for exactly that version: S3 never changes a version's bytes, so a file
 *     served from a URL is the generated one without this code reading it. Where there are no versions
 *     (s3rver), a file handed out by URL or delivered is hashed whole first instead.
 */

/** The XML's pin, as generation recorded it. */
export const xmlPin = (ref: ArtefactRef): StoredFilePin => ({
  key: ref.key,
  sha256: ref.sha256,
  sizeBytes: ref.sizeBytes,
  ...(ref.versionId ? { versionId: ref.versionId } : {}),
});

/** The statement's pin; null for a statement stored before statements were pinned. */
export const statementPin = (ref: ArtefactRef): StoredFilePin | null =>
  ref.statementKey && ref.statementSha256
    ? {
        key: ref.statementKey,
        sha256: ref.statementSha256,
        ...(ref.statementVersionId ? { versionId: ref.statementVersionId } : {}),
      }
    : null;

/** Refuses unless the current version is the pinned one (a versioned bucket; one HEAD). */
async function currentIsPinned(blobs: BlobStore, bucket: string, file: StoredFile, pin: StoredFilePin) {
  const head = await blobs.head(bucket, pin.key);
  if (!head) throw new StoredFileMismatch(file, pin, { kind: 'missing' });
  if (head.versionId !== pin.versionId)
    throw new StoredFileMismatch(file, pin, { kind: 'replaced', versionId: head.versionId ?? null });
}

/** Refuses bytes whose size or SHA-256 is not the pinned one. */
function compare(file: StoredFile, pin: StoredFilePin, got: { sizeBytes: number; sha256: string }) {
  if (
    got.sha256 !== pin.sha256.toLowerCase() ||
    (pin.sizeBytes !== undefined && got.sizeBytes !== pin.sizeBytes)
  )
    throw new StoredFileMismatch(file, pin, { kind: 'differs', ...got });
}

/** The stored bytes (of the pinned version), hashed and compared before they are returned: small files only. */
export async function readPinned(
  blobs: BlobStore,
  bucket: string,
  file: StoredFile,
  pin: StoredFilePin,
): Promise<Buffer> {
  if (pin.versionId) await currentIsPinned(blobs, bucket, file, pin);
  const body = await blobs.get(bucket, pin.key, pin.versionId ? { versionId: pin.versionId } : {});
  if (!body) throw new StoredFileMismatch(file, pin, { kind: 'missing' });
  const chunks: Buffer[] = [];
  for await (const c of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c));
  const bytes = Buffer.concat(chunks);
  compare(file, pin, { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  return bytes;
}

/**
 * Resolves when the stored file is the pinned one, reading nothing it would not serve: the current version
 * against the pinned one where versioned (S3 keeps a version's bytes), else the whole file hashed as it
 * streams (never held in memory).
 */
export async function checkPinned(
  blobs: BlobStore,
  bucket: string,
  file: StoredFile,
  pin: StoredFilePin,
): Promise<void> {
  if (pin.versionId) return currentIsPinned(blobs, bucket, file, pin);
  const body = await blobs.get(bucket, pin.key);
  if (!body) throw new StoredFileMismatch(file, pin, { kind: 'missing' });
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const c of body as AsyncIterable<Uint8Array>) {
    hash.update(c);
    sizeBytes += c.length;
  }
  compare(file, pin, { sizeBytes, sha256: hash.digest('hex') });
}
