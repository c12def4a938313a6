import { S3BlobStore } from './adapters/s3/blob-store';
import { lazy, notPlugged, once, resourceServiceWith } from './composition';
import { packageServiceWith } from './composition-packages';
import { bucketName } from './config/env';
import type { BlobStore } from './ports/blob-store';
import { metadataDigestFrom } from './services/artefact/metadata-file';
import type { PackageService } from './services/package-service';
import type { ResourceService } from './services/resource-service';

/**
 * The getters of composition.ts composed with S3 object storage. Only the handlers of routes whose row
 * `uses` a bucket import them (directly or through composition-artefacts.ts), so only their Lambdas bundle
 * the S3 client (docs/decisions/052-composition-by-adapter.md).
 */

/** Object storage, one per instance; callers pass the bucket (bucketName('resources'|'artefacts'|'audit')). */
export const blobStore = /* @__PURE__ */ once((): BlobStore => new S3BlobStore());

/** The resources service with object storage (uploads, presigned uploads, deletion). */
export const resourceServiceWithStorage: () => ResourceService = /* @__PURE__ */ resourceServiceWith(
  /* @__PURE__ */ lazy(blobStore),
);

/**
 * The package service of generatePackage: reads a model's metadata file to pin it when its digest was not
 * recorded at upload (decision 190); no XML generation.
 */
export const packageServiceWithResourceReads: () => PackageService = /* @__PURE__ */ packageServiceWith(
  () => {
    throw notPlugged('artefact store', 'composition-artefacts.ts');
  },
  undefined,
  /* @__PURE__ */ once(() => metadataDigestFrom(blobStore(), () => bucketName('resources'))),
);
