import type { Readable } from 'node:stream';

export interface BlobHead {
  sizeBytes: number;
  contentType?: string;
  /** the current version's id in a versioned bucket (S3 in AWS); absent where the store keeps no versions */
  versionId?: string;
}

/** What a write stored: the new version's id in a versioned bucket, nothing where there are no versions. */
export interface StoredVersion {
  versionId?: string;
}

export interface PutOptions {
  contentType?: string;
  /** required when the body is a stream: S3 needs the length of a single PUT up front */
  sizeBytes?: number;
}

export interface UploadedPart {
  partNumber: number;
  sizeBytes: number;
  etag: string;
}

/** S3's refusal of a CompleteMultipartUpload, with its code (InvalidPart, InvalidPartOrder, EntityTooSmall, NoSuchUpload). */
export class MultipartRefusal extends Error {
  override name = 'MultipartRefusal';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PresignPutOptions {
  expiresInSeconds: number;
  /** when given, the uploader must send exactly this Content-Type */
  contentType?: string;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** the file name the browser saves the download as (Content-Disposition: attachment) */
  downloadName?: string;
  contentType?: string;
  /** a version of the object (S3 VersionId): the URL serves that version's bytes whatever was written since */
  versionId?: string;
}

/**
 * Object storage by bucket and key (S3 in AWS, s3rver locally). Generic: the bucket is passed in, so
 * resources, artefacts and audit exports share one adapter. Bodies stream; nothing here buffers a
 * whole object except `readRange`, which reads the few bytes asked for.
 */
export interface BlobStore {
  put(bucket: string, key: string, body: Uint8Array | Readable, options?: PutOptions): Promise<StoredVersion>;
  /**
   * Writes a body whose length is not known in advance (a package being generated), holding a bounded
   * window of it in memory and nothing on disk. The object appears only when the whole body has been
   * written; when the body or the store fails, nothing is left under the key. Each chunk is copied before
   * the next is asked for, so a body may lend its chunks (one Buffer refilled, as the XML builder does).
   */
  putStream(
    bucket: string,
    key: string,
    body: AsyncIterable<Uint8Array>,
    options?: { contentType?: string },
  ): Promise<{ sizeBytes: number } & StoredVersion>;
  /**
   * The object's bytes as a stream (of `versionId` when given: S3 never changes a version's bytes); null
   * when it (or that version) does not exist.
   */
  get(bucket: string, key: string, options?: { versionId?: string }): Promise<Readable | null>;
  /** size, type and current version, or null when the object does not exist (or is deleted) */
  head(bucket: string, key: string): Promise<BlobHead | null>;
  /** bytes start..endInclusive (fewer when the object is shorter); null when it does not exist */
  readRange(bucket: string, key: string, start: number, endInclusive: number): Promise<Uint8Array | null>;
  /** deletes the keys; missing keys are not an error */
  delete(bucket: string, keys: readonly string[]): Promise<void>;
  presignPut(bucket: string, key: string, options: PresignPutOptions): Promise<string>;
  /** starts a multipart upload to `key`; returns S3's upload id */
  createMultipart(bucket: string, key: string, options?: { contentType?: string }): Promise<string>;
  /** a presigned UploadPart URL (PUT the part's bytes; S3 answers its ETag) */
  presignPart(
    bucket: string,
    key: string,
    multipartId: string,
    partNumber: number,
    options: { expiresInSeconds: number },
  ): Promise<string>;
  /** the parts S3 holds, by part number; null when the upload does not exist (completed, aborted, unknown) */
  listParts(bucket: string, key: string, multipartId: string): Promise<UploadedPart[] | null>;
  /**
   * Joins the parts into the object. Refused (MultipartRefusal) when S3 refuses them: a part missing or
   * with another ETag, parts out of order, a part but the last under 5 MiB, an unknown upload.
   */
  completeMultipart(
    bucket: string,
    key: string,
    multipartId: string,
    parts: ReadonlyArray<{ partNumber: number; etag: string }>,
  ): Promise<void>;
  /** drops the upload and its parts; an unknown upload is not an error */
  abortMultipart(bucket: string, key: string, multipartId: string): Promise<void>;
  presignGet(bucket: string, key: string, options: PresignGetOptions): Promise<string>;
}
