import { blobStoreContract } from '../../../test/contracts/blob-store.contract';
import { MemoryBlobStore } from './blob-store';

// the same contract runs on s3rver: test/integration/ports/blob-store.test.ts
blobStoreContract('memory', async () => ({ store: new MemoryBlobStore(), bucket: 'contract' }));
blobStoreContract('memory, versioned', async () => ({
  store: new MemoryBlobStore(undefined, true),
  bucket: 'contract',
}));
