import './composition-storage';
import { KmsSigner } from './adapters/kms/kms-signer';
import { FileSigner } from './adapters/local/file-signer';
import { blobStore } from './composition';
import { provideArtefacts } from './composition-packages';
import { bucketName, intEnv } from './config/env';
import type { Signer } from './ports/signer';
import { BlobArtefactStore } from './services/artefact/artefact-store';

/**
 * Plugs XML generation and storage (S3, and the signer) into the package service. Imported for this effect
 * by the handlers that generate, download or delete artefacts or serve the public key, so only their
 * Lambdas bundle S3, KMS and the XML code (docs/decisions/052-composition-by-adapter.md).
 */
let signer: Signer | undefined;
/** The package signer: a local key file (SIGNING_KEY_FILE, local stack) or the KMS key (SIGNING_KEY_ID, AWS). */
function packageSigner(): Signer {
  signer ??= process.env.SIGNING_KEY_FILE ? FileSigner.fromEnv() : KmsSigner.fromEnv();
  return signer;
}

provideArtefacts(
  () =>
    new BlobArtefactStore(blobStore(), packageSigner, {
      resourcesBucket: () => bucketName('resources'),
      artefactsBucket: () => bucketName('artefacts'),
      inlineLimitBytes: intEnv('INLINE_DOWNLOAD_MAX_BYTES', 4 * 1024 * 1024),
      downloadUrlTtlSeconds: intEnv('DOWNLOAD_URL_TTL_SECONDS', 10 * 60),
    }),
);
