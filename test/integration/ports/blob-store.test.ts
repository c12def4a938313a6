import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, inject } from 'vitest';
import { localS3Config } from '../../../infra/local/local-aws';
import { S3BlobStore } from '../../../lambdas/adapters/s3/blob-store';
import { blobStoreContract } from '../../contracts/blob-store.contract';

// the same contract runs on the memory adapter: lambdas/adapters/memory/blob-store.contract.test.ts
// the product's retries (lambdas/adapters/s3/client.ts: three attempts), not the one attempt of test/support
const client = new S3Client(localS3Config(inject('s3Endpoint'), 3));
const bucket = `ct-blobs-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
beforeAll(async () => {
  // a bucket of its own on the run's s3rver: nothing else lists or counts what this file writes
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
});

// parts of 5 MiB (S3's minimum): the contract's bodies stay below one part, a single PutObject each
blobStoreContract('S3 (s3rver)', async () => ({
  store: new S3BlobStore(() => client, 5 * 1024 * 1024),
  bucket,
}));
