import type { Stage } from '../shared/api/contracts/resources';
import { KmsSigner } from './adapters/kms/kms-signer';
import { FileSigner } from './adapters/local/file-signer';
import { once } from './composition';
import { packageServiceWith } from './composition-packages';
import { blobStore } from './composition-storage';
import { bucketName, intEnv } from './config/env';
import type { ArtefactService } from './ports/artefact-service';
import type { PackageKeys, Signer } from './ports/signer';
import { BlobArtefactStore } from './services/artefact/artefact-store';
import type { PackageService } from './services/package-service';

/**
 * The package service composed with XML generation and storage (S3, and the signer). Only the handlers
 * that generate, download or delete artefacts or serve the public key import these getters, so only their
 * Lambdas bundle S3, KMS and the XML code (docs/decisions/052-composition-by-adapter.md).
 */

/**
 * A stage's package key (decision 295): a local key file (SIGNING_KEY_FILE / DEV_SIGNING_KEY_FILE, local
 * stack) or the KMS key (SIGNING_KEY_ID / DEV_SIGNING_KEY_ID, AWS), read on first use.
 */
const stageKey = (stage: Stage) =>
  once((): Signer => (process.env.SIGNING_KEY_FILE ? FileSigner.fromEnv(stage) : KmsSigner.fromEnv(stage)));
const KEYS: Record<Stage, () => Signer> = { RELEASE: stageKey('RELEASE'), DEV: stageKey('DEV') };

/** XML generation and storage signing for `signsFor` only (the generation worker of that stage). */
const storeSigningFor = (signsFor: readonly Stage[]) =>
  once((): ArtefactService => {
    const keys: PackageKeys = { of: (stage) => KEYS[stage](), signsFor };
    return new BlobArtefactStore(blobStore(), keys, {
      resourcesBucket: () => bucketName('resources'),
      artefactsBucket: () => bucketName('artefacts'),
      inlineLimitBytes: intEnv('INLINE_DOWNLOAD_MAX_BYTES', 4 * 1024 * 1024),
      downloadUrlTtlSeconds: intEnv('DOWNLOAD_URL_TTL_SECONDS', 10 * 60),
    });
  });

/** Storage of artefacts and the public keys; it signs nothing (downloads, deletions, the key routes). */
export const artefactService = /* @__PURE__ */ storeSigningFor([]);

/** The package service that downloads, serves and deletes artefacts; it signs nothing. */
export const packageServiceWithArtefacts: () => PackageService =
  /* @__PURE__ */ packageServiceWith(artefactService);

/**
 * The package service of the generation worker of `stage`: it generates, stores and signs that stage's
 * packages with that stage's key alone (decision 295).
 */
export const packageServiceSigning = (stage: Stage): (() => PackageService) => SIGNING[stage];
const SIGNING: Record<Stage, () => PackageService> = {
  RELEASE: /* @__PURE__ */ packageServiceWith(storeSigningFor(['RELEASE'])),
  DEV: /* @__PURE__ */ packageServiceWith(storeSigningFor(['DEV'])),
};
