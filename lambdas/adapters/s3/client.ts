import { S3Client } from '@aws-sdk/client-s3';

let client: S3Client | undefined;
/**
 * The S3 client, once per module instance. With S3_LOCAL_COMPAT (set by the local stack only) it uses
 * path-style addressing and checksums only when required: s3rver stores streamed uploads corrupted
 * otherwise (STACK.md). Kept apart from the DynamoDB client so DynamoDB-only Lambdas do not bundle S3.
 */
export function s3(): S3Client {
  if (!client) {
    const local = process.env.S3_LOCAL_COMPAT === 'true';
    client = new S3Client({
      maxAttempts: 3,
      ...(local
        ? {
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {}),
    });
  }
  return client;
}
