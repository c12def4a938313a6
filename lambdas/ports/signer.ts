import type { Stage } from '../../shared/api/contracts/resources';

/**
 * Signs package manifests (DESIGN §3): ECDSA on NIST P-256 over a SHA-256 digest, signature DER-encoded.
 * The caller hashes, so a remote key (KMS takes at most 4096 bytes) never sees the data itself.
 * Adapters: local file key (adapters/local/file-signer.ts), AWS KMS (adapters/kms/kms-signer.ts).
 */
export interface Signer {
  /** Names the key in the package: the KMS key id, or a fingerprint of the local key. */
  readonly keyId: string;
  /** DER-encoded ECDSA P-256 signature of `digest`, which must be a 32-byte SHA-256 digest. */
  sign(digest: Uint8Array): Promise<Uint8Array>;
  /** The public key as SPKI PEM ("-----BEGIN PUBLIC KEY-----"), as openssl and the verifier read it. */
  publicKeyPem(): Promise<string>;
}

/** The one algorithm a Signer implements, as written in the package. */
export const SIGNATURE_ALGORITHM = 'ECDSA_P256_SHA256';

/**
 * The package keys of one function (decision 295): development packages are signed with the development
 * key, release packages with the release key, and each key's policy lets only its own generation worker
 * sign. `of` answers a stage's key (its public half is public); `signsFor` names the stages this function
 * signs for: its generation worker's own stage, or none.
 */
export interface PackageKeys {
  of(stage: Stage): Signer;
  readonly signsFor: readonly Stage[];
}
