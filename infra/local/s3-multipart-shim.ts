import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { s3 } from '../../lambdas/adapters/s3/client';
import type { InitializeStack } from './sdk-middleware';

/**
 * What s3rver 3.7 lacks of S3's multipart uploads, made good in the local server (decision 171):
 *   - ListParts and AbortMultipartUpload are not implemented (s3rver answers 405 / 501);
 *   - CompleteMultipartUpload joins whatever part files it finds: it checks no ETag, no order, no part
 *     size (S3 refuses a part but the last under 5 MiB) and fails with a 500 on a missing part.
 * The handlers call these through the SDK client as in AWS; this middleware answers ListParts and Abort
 * from s3rver's own upload folder (`<dir>/<bucket>/._S3rver_uploads/<uploadId>/`: the key, part files
 * `<n>` and their MD5 `<n>.md5`, which is the part's ETag) and applies S3's rules to Complete before
 * s3rver joins the parts, with S3's error codes. So the local stack is as strict as S3, not more lenient.
 * Presigned UploadPart PUTs from the browser go to s3rver directly (it stores each part and answers its
 * MD5 as ETag, like S3); the part number is part of the signature, so a URL serves one part only.
 */

const MIN_PART_BYTES = 5 * 1024 * 1024;

interface Input {
  Bucket?: string;
  Key?: string;
  UploadId?: string;
  PartNumberMarker?: string;
  MultipartUpload?: { Parts?: Array<{ PartNumber?: number; ETag?: string }> };
}

function s3Error(name: string, message: string, status = 400): S3ServiceException {
  return new S3ServiceException({
    name,
    message,
    $fault: 'client',
    $metadata: { httpStatusCode: status },
  });
}

/** The upload's folder when it exists for this bucket and key; otherwise S3's NoSuchUpload. */
function uploadDir(root: string, input: Input): string {
  const dir = join(root, String(input.Bucket), '._S3rver_uploads', String(input.UploadId));
  if (!input.UploadId || /[/\\]|\.\./.test(input.UploadId) || !existsSync(join(dir, 'key')))
    throw s3Error('NoSuchUpload', 'The specified upload does not exist.', 404);
  if (readFileSync(join(dir, 'key'), 'utf8') !== input.Key)
    throw s3Error('NoSuchUpload', 'The specified upload does not exist for this key.', 404);
  return dir;
}

function partsOf(dir: string): Array<{ PartNumber: number; Size: number; ETag: string }> {
  return readdirSync(dir)
    .filter((f) => /^\d+$/.test(f) && existsSync(join(dir, `${f}.md5`)))
    .map((f) => ({
      PartNumber: Number(f),
      Size: statSync(join(dir, f)).size,
      ETag: `"${readFileSync(join(dir, `${f}.md5`), 'utf8').trim()}"`,
    }))
    .sort((a, b) => a.PartNumber - b.PartNumber);
}

function listParts(root: string, input: Input) {
  const after = Number(input.PartNumberMarker ?? 0);
  const all = partsOf(uploadDir(root, input)).filter((p) => p.PartNumber > after);
  const page = all.slice(0, 1000);
  return {
    Bucket: input.Bucket,
    Key: input.Key,
    UploadId: input.UploadId,
    Parts: page,
    IsTruncated: all.length > page.length,
    ...(all.length > page.length ? { NextPartNumberMarker: String(page[page.length - 1]?.PartNumber) } : {}),
    $metadata: { httpStatusCode: 200 },
  };
}

/** S3's checks of CompleteMultipartUpload (docs: "CompleteMultipartUpload", Errors). */
function checkComplete(root: string, input: Input): void {
  const dir = uploadDir(root, input);
  const given = input.MultipartUpload?.Parts ?? [];
  if (given.length === 0) throw s3Error('MalformedXML', 'You must specify at least one part.');
  const held = new Map(partsOf(dir).map((p) => [p.PartNumber, p]));
  let previous = 0;
  given.forEach((p, i) => {
    const n = p.PartNumber ?? 0;
    if (n <= previous) throw s3Error('InvalidPartOrder', 'The list of parts was not in ascending order.');
    previous = n;
    const part = held.get(n);
    if (!part || part.ETag.replace(/"/g, '') !== String(p.ETag ?? '').replace(/"/g, ''))
      throw s3Error(
        'InvalidPart',
        'One or more of the specified parts could not be found or its entity tag did not match.',
      );
    if (i < given.length - 1 && part.Size < MIN_PART_BYTES)
      throw s3Error(
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed object size.',
      );
  });
}

let installed = false;
/** Adds the multipart shim to the S3 client of the handlers (once per process); `root` is s3rver's -d. */
export function installS3MultipartShim(root: string | undefined = process.env.LOCAL_S3RVER_DIR): void {
  if (installed || !root) return;
  installed = true;
  (s3().middlewareStack as unknown as InitializeStack).add(
    (next, context) => async (args) => {
      const input = args.input as Input;
      switch (context.commandName) {
        case 'ListPartsCommand':
          return { output: listParts(root, input), response: {} };
        case 'AbortMultipartUploadCommand':
          rmSync(uploadDir(root, input), { recursive: true, force: true });
          return { output: { $metadata: { httpStatusCode: 204 } }, response: {} };
        case 'CompleteMultipartUploadCommand':
          checkComplete(root, input);
          return next(args);
        default:
          return next(args);
      }
    },
    // after the local IAM check (also at initialize): a call the route may not make is refused first
    { step: 'initialize', name: 'localS3MultipartShim', priority: 'low' },
  );
}
