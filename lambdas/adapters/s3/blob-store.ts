import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  type Part,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type BlobHead,
  type BlobStore,
  MultipartRefusal,
  type PresignGetOptions,
  type PresignPutOptions,
  type PutOptions,
  type StoredVersion,
  type UploadedPart,
} from '../../ports/blob-store';
import { s3 } from './client';

/** S3's answers to a CompleteMultipartUpload it refuses (the request's fault, not the service's). */
const MULTIPART_REFUSALS = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall', 'NoSuchUpload']);

function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    err?.name === 'NoSuchKey' ||
    err?.name === 'NoSuchVersion' ||
    err?.name === 'NotFound' ||
    err?.$metadata?.httpStatusCode === 404
  );
}

/** S3's version id of a write or a read; s3rver (no versioning) answers none, unversioned S3 "null". */
const versionOf = (id: string | undefined): StoredVersion => (id && id !== 'null' ? { versionId: id } : {});

let presigner: S3Client | undefined;
/**
 * A client for presigning only. With the SDK's default checksum mode a presigned PutObject URL carries
 * the CRC32 of an empty body, and S3 then refuses every real upload to it; presigning with
 * WHEN_REQUIRED leaves the checksum out. No request is ever sent with this client.
 */
function presignClient(): S3Client {
  presigner ??= new S3Client({
    forcePathStyle: process.env.S3_LOCAL_COMPAT === 'true',
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return presigner;
}

/** Parts of a streamed write: S3 wants ≥ 5 MiB but the last; 8 MiB × 10,000 parts allows 78 GiB. */
export const STREAM_PART_BYTES = 8 * 1024 * 1024;
/** parts uploading while the next one fills: memory stays within (this + 1) × STREAM_PART_BYTES */
const PARTS_IN_FLIGHT = 2;

/** BlobStore on S3 (s3rver locally, through the same SDK calls). */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: () => S3Client = s3,
    private readonly partBytes = STREAM_PART_BYTES,
  ) {}

  async put(
    bucket: string,
    key: string,
    body: Uint8Array | Readable,
    options: PutOptions = {},
  ): Promise<StoredVersion> {
    const isBytes = body instanceof Uint8Array;
    if (!isBytes && options.sizeBytes === undefined) {
      throw new Error(`put ${key}: a streamed body needs sizeBytes`);
    }
    const r = await this.client().send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentLength: isBytes ? body.byteLength : options.sizeBytes,
        ContentType: options.contentType ?? 'application/octet-stream',
      }),
    );
    return versionOf(r.VersionId);
  }

  /**
   * A body shorter than one part is sent as one PutObject; a longer one as a multipart upload whose
   * parts go out while the next is read, so generating and uploading overlap. When anything fails the
   * upload is aborted: S3 never shows an object for it (a bucket lifecycle rule removes parts an abort
   * could not reach; s3rver cannot abort and keeps them in its folder, invisible to every call).
   */
  async putStream(
    bucket: string,
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: { contentType?: string } = {},
  ): Promise<{ sizeBytes: number } & StoredVersion> {
    const contentType = options.contentType ?? 'application/octet-stream';
    const iterator = body[Symbol.asyncIterator]();
    // Part buffers are reused once S3 has taken their bytes: at most PARTS_IN_FLIGHT + 1 of them ever
    // exist, so memory is bounded by the part size, not by how fast the garbage collector comes by.
    // A chunk of the body is copied whole (the rest kept as `leftover` goes in before the next read)
    // before the next is asked for: the body may lend its chunks (the port's promise).
    const free: Buffer[] = [];
    let leftover: Uint8Array | undefined;
    let done = false;
    let sizeBytes = 0;
    /** the next part (a view of a pooled buffer): partBytes, or what is left at the end of the body */
    const nextPart = async (): Promise<{ bytes: Buffer; buffer: Buffer } | null> => {
      const buffer = free.pop() ?? Buffer.allocUnsafe(this.partBytes);
      let filled = 0;
      while (filled < this.partBytes) {
        if (!leftover) {
          if (done) break;
          const r = await iterator.next();
          if (r.done) {
            done = true;
            break;
          }
          leftover = r.value;
        }
        const n = Math.min(leftover.byteLength, this.partBytes - filled);
        buffer.set(leftover.subarray(0, n), filled);
        filled += n;
        leftover = n < leftover.byteLength ? leftover.subarray(n) : undefined;
      }
      if (filled === 0) {
        free.push(buffer);
        return null;
      }
      sizeBytes += filled;
      return { bytes: buffer.subarray(0, filled), buffer };
    };
    /** true when nothing follows the part just read */
    const atEnd = async (): Promise<boolean> => {
      while (!leftover && !done) {
        const r = await iterator.next();
        if (r.done) done = true;
        else if (r.value.byteLength > 0) leftover = r.value;
      }
      return !leftover;
    };

    /** stops the body when the write cannot go on (its source, e.g. an S3 GetObject, is released) */
    const stopBody = async () => {
      await iterator.return?.().catch(() => {});
    };

    let uploadId: string | undefined;
    try {
      const first = await nextPart();
      if (!first || (await atEnd())) {
        const bytes = first?.bytes ?? new Uint8Array();
        const stored = await this.put(bucket, key, bytes, { contentType });
        return { sizeBytes: bytes.byteLength, ...stored };
      }
      const created = await this.client().send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
      );
      uploadId = created.UploadId;
      if (!uploadId) throw new Error(`putStream ${key}: S3 gave no upload id`);
      return await this.uploadParts(bucket, key, uploadId, first, nextPart, free, () => sizeBytes);
    } catch (e) {
      await stopBody();
      if (uploadId) {
        const UploadId = uploadId;
        await this.client()
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }))
          .catch(() => {});
      }
      throw e;
    }
  }

  private async uploadParts(
    bucket: string,
    key: string,
    uploadId: string,
    first: { bytes: Buffer; buffer: Buffer },
    nextPart: () => Promise<{ bytes: Buffer; buffer: Buffer } | null>,
    free: Buffer[],
    sizeBytes: () => number,
  ): Promise<{ sizeBytes: number } & StoredVersion> {
    const parts: { PartNumber: number; ETag: string }[] = [];
    const inFlight: Promise<void>[] = [];
    const send = ({ bytes, buffer }: { bytes: Buffer; buffer: Buffer }, partNumber: number) =>
      this.client()
        .send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: bytes,
            ContentLength: bytes.byteLength,
          }),
        )
        .then((r) => {
          parts.push({ PartNumber: partNumber, ETag: r.ETag ?? '' });
          // S3 has the bytes: the buffer may hold the next part
          free.push(buffer);
        });
    try {
      let part: { bytes: Buffer; buffer: Buffer } | null = first;
      for (let n = 1; part; n++) {
        if (inFlight.length >= PARTS_IN_FLIGHT) await inFlight.shift();
        const sending = send(part, n);
        // a failed part is reported when it is awaited; until then it must not count as unhandled
        sending.catch(() => {});
        inFlight.push(sending);
        part = await nextPart();
      }
      await Promise.all(inFlight);
    } catch (e) {
      await Promise.allSettled(inFlight);
      throw e;
    }
    parts.sort((a, b) => a.PartNumber - b.PartNumber);
    const done = await this.client().send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    return { sizeBytes: sizeBytes(), ...versionOf(done.VersionId) };
  }

  async get(bucket: string, key: string, options: { versionId?: string } = {}): Promise<Readable | null> {
    try {
      const r = await this.client().send(
        new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: options.versionId }),
      );
      return (r.Body as Readable | undefined) ?? null;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async head(bucket: string, key: string): Promise<BlobHead | null> {
    try {
      const r = await this.client().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { sizeBytes: r.ContentLength ?? 0, contentType: r.ContentType, ...versionOf(r.VersionId) };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async readRange(
    bucket: string,
    key: string,
    start: number,
    endInclusive: number,
  ): Promise<Uint8Array | null> {
    try {
      const r = await this.client().send(
        new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${endInclusive}` }),
      );
      return r.Body ? await r.Body.transformToByteArray() : new Uint8Array();
    } catch (e) {
      if (isMissing(e)) return null;
      // 416: the object is shorter than `start` (e.g. empty): there are no bytes in that range
      if ((e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 416) {
        return new Uint8Array();
      }
      throw e;
    }
  }

  async delete(bucket: string, keys: readonly string[]): Promise<void> {
    // One DeleteObject per key: the lists here are short (a resource and its metadata, a package's
    // artefacts), and a per-key call reports a failure for that key alone.
    await Promise.all(
      keys.map((Key) => this.client().send(new DeleteObjectCommand({ Bucket: bucket, Key }))),
    );
  }

  presignPut(bucket: string, key: string, options: PresignPutOptions): Promise<string> {
    return getSignedUrl(
      presignClient(),
      new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: options.contentType }),
      { expiresIn: options.expiresInSeconds },
    );
  }

  presignGet(bucket: string, key: string, options: PresignGetOptions): Promise<string> {
    const disposition = options.downloadName
      ? `attachment; filename="${options.downloadName.replace(/["\\\r\n]/g, '_')}"`
      : undefined;
    return getSignedUrl(
      presignClient(),
      new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        VersionId: options.versionId,
        ResponseContentDisposition: disposition,
        ResponseContentType: options.contentType,
      }),
      { expiresIn: options.expiresInSeconds },
    );
  }

  async createMultipart(
    bucket: string,
    key: string,
    options: { contentType?: string } = {},
  ): Promise<string> {
    const r = await this.client().send(
      new CreateMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        ContentType: options.contentType ?? 'application/octet-stream',
      }),
    );
    if (!r.UploadId) throw new Error(`CreateMultipartUpload of ${key} answered no UploadId`);
    return r.UploadId;
  }

  presignPart: BlobStore['presignPart'] = (bucket, key, multipartId, partNumber, options) =>
    getSignedUrl(
      presignClient(),
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: multipartId, PartNumber: partNumber }),
      { expiresIn: options.expiresInSeconds },
    );

  async listParts(bucket: string, key: string, multipartId: string): Promise<UploadedPart[] | null> {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    // at most 1,000 parts an answer; 10,000 parts take ten calls
    for (let page = 0; page < 11; page++) {
      let r: { Parts?: Part[]; IsTruncated?: boolean; NextPartNumberMarker?: string };
      try {
        r = await this.client().send(
          new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: multipartId, PartNumberMarker: marker }),
        );
      } catch (e) {
        if ((e as { name?: string }).name === 'NoSuchUpload' || isMissing(e)) return null;
        throw e;
      }
      for (const p of r.Parts ?? [])
        parts.push({ partNumber: p.PartNumber ?? 0, sizeBytes: p.Size ?? 0, etag: p.ETag ?? '' });
      if (!r.IsTruncated) return parts;
      marker = r.NextPartNumberMarker;
    }
    throw new Error(`ListParts of ${key} did not end after 11 pages`);
  }

  async completeMultipart(
    bucket: string,
    key: string,
    multipartId: string,
    parts: ReadonlyArray<{ partNumber: number; etag: string }>,
  ): Promise<void> {
    try {
      await this.client().send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: multipartId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (e) {
      const err = e as { name?: string; message?: string };
      if (err.name && MULTIPART_REFUSALS.has(err.name))
        throw new MultipartRefusal(err.name, err.message ?? err.name);
      throw e;
    }
  }

  async abortMultipart(bucket: string, key: string, multipartId: string): Promise<void> {
    try {
      await this.client().send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: multipartId }),
      );
    } catch (e) {
      if ((e as { name?: string }).name === 'NoSuchUpload' || isMissing(e)) return;
      throw e;
    }
  }
}
