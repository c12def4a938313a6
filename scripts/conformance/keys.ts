import { createHash } from 'node:crypto';
import type { Signer } from '../../lambdas/ports/signer';
import { fixedKeySigner } from '../../lambdas/testing/artefact/package-format.example';

/**
 * The test keys of the conformance corpus (docs/conformance/): fixed private keys, public here, that no
 * device may trust; never the portal's. Signatures are deterministic (RFC 6979, low-S, @noble/curves), so
 * the corpus is byte-identical on every regeneration.
 */

export type TestKeyName = 'release' | 'dev' | 'untrusted';

/** A private scalar from a label: its SHA-256 (fixedKeySigner refuses one outside 1 .. n − 1). */
const secretOf = (label: string): Uint8Array =>
  new Uint8Array(
    createHash('sha256').update(`firmware-release-portal conformance corpus: ${label}`).digest(),
  );

const SIGNERS: Record<TestKeyName, Signer> = {
  release: fixedKeySigner(secretOf('release test key')),
  dev: fixedKeySigner(secretOf('development test key')),
  untrusted: fixedKeySigner(secretOf('untrusted test key')),
};

/** The corpus's signer of `name`. */
export const testKey = (name: TestKeyName): Signer => SIGNERS[name];
