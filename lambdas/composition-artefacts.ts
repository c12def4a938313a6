import { KmsSigner } from './adapters/kms/kms-signer';
import { FileSigner } from './adapters/local/file-signer';
import { once } from './composition';
import { packageServiceWith } from './composition-packages';
import { blobStore } from './composition-storage';
import { bucketName, intEnv } from './config/env';
import type { ArtefactService } from './ports/artefact-service';
import type { Signer } from './ports/signer';
import { BlobArtefactStore } from './services/artefact/artefact-store';
import type { PackageService } from './services/package-service';

/**
 * The package service composed with XML generation and storage (S3, and the signer). Only the handlers
 * that generate, download or delete artefacts or serve the public key import these getters, so only their
 * Lambdas bundle S3, KMS and the XML code (docs/decisions/052-composition-by-adapter.md).
 */

/** The package signer: a local key file (SIGNING_KEY_FILE, local stack) or the KMS key (SIGNING_KEY_ID, AWS). */
const packageSigner = /* @__PURE__ */ once(
  (): Signer => (process.env.SIGNING_KEY_FILE ? FileSigner.fromEnv() : KmsSigner.fromEnv()),
);

/** XML generation and storage; built on first use. */
export const artefactService = /* @__PURE__ */ once(
  (): ArtefactService =>
    new BlobArtefactStore(blobStore(), packageSigner, {
      resourcesBucket: () => bucketName('resources'),
      artefactsBucket: () => bucketName('artefacts'),
      inlineLimitBytes: intEnv('INLINE_DOWNLOAD_MAX_BYTES', 4 * 1024 * 1024),
      downloadUrlTtlSeconds: intEnv('DOWNLOAD_URL_TTL_SECONDS', 10 * 60),
    }),
);

/** The package service that generates, stores, signs and deletes artefacts. */
export const packageServiceWithArtefacts: () => PackageService =
  /* @__PURE__ */ packageServiceWith(artefactService);
