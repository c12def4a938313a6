import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type {
  BlobHead,
  BlobStore,
  PresignGetOptions,
  PresignPutOptions,
  PutOptions,
} from '../../ports/blob-store';
import { s3 } from './client';

function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
}

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

/** BlobStore on S3 (s3rver locally, through the same SDK calls). */
export class S3BlobStore implements BlobStore {
  async put(
    bucket: string,
    key: string,
    body: Uint8Array | Readable,
    options: PutOptions = {},
  ): Promise<void> {
    const isBytes = body instanceof Uint8Array;
    if (!isBytes && options.sizeBytes === undefined) {
      throw new Error(`put ${key}: a streamed body needs sizeBytes`);
    }
    await s3().send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentLength: isBytes ? body.byteLength : options.sizeBytes,
        ContentType: options.contentType ?? 'application/octet-stream',
      }),
    );
  }

  async get(bucket: string, key: string): Promise<Readable | null> {
    try {
      const r = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return (r.Body as Readable | undefined) ?? null;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async head(bucket: string, key: string): Promise<BlobHead | null> {
    try {
      const r = await s3().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { sizeBytes: r.ContentLength ?? 0, contentType: r.ContentType };
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
      const r = await s3().send(
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
    await Promise.all(keys.map((Key) => s3().send(new DeleteObjectCommand({ Bucket: bucket, Key }))));
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
        ResponseContentDisposition: disposition,
        ResponseContentType: options.contentType,
      }),
      { expiresIn: options.expiresInSeconds },
    );
  }
}
