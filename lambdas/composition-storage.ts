import { S3BlobStore } from './adapters/s3/blob-store';
import { BLOB_STORE_METHODS, lazy, once, resourceServiceWith } from './composition';
import type { BlobStore } from './ports/blob-store';
import type { ResourceService } from './services/resource-service';

/**
 * The getters of composition.ts composed with S3 object storage. Only the handlers of routes whose row
 * `uses` a bucket import them (directly or through composition-artefacts.ts), so only their Lambdas bundle
 * the S3 client (docs/decisions/052-composition-by-adapter.md).
 */

/** Object storage, one per instance; callers pass the bucket (bucketName('resources'|'artefacts'|'audit')). */
export const blobStore = /* @__PURE__ */ once((): BlobStore => new S3BlobStore());

/** The resources service with object storage (uploads, presigned uploads, deletion). */
export const resourceService: () => ResourceService = /* @__PURE__ */ resourceServiceWith(
  /* @__PURE__ */ lazy(blobStore, BLOB_STORE_METHODS),
);
