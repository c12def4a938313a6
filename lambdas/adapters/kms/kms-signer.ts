import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import type { Stage } from '../../../shared/api/contracts/resources';
import { toLowS } from '../../../shared/domain/ecdsa-low-s';
import { requireEnv } from '../../config/env';
import type { Signer } from '../../ports/signer';

let client: KMSClient | undefined;
const kms = (): KMSClient => {
  client ??= new KMSClient({ maxAttempts: 3 });
  return client;
};

/**
 * The AWS signer (DESIGN §1): a KMS asymmetric key, ECC_NIST_P256, SIGN_VERIFY. KMS signs the digest we
 * send (MessageType DIGEST, at most 4096 bytes of message otherwise); the private key never leaves KMS.
 */
export class KmsSigner implements Signer {
  private publicPem: Promise<string> | undefined;

  constructor(
    readonly keyId: string,
    private readonly client: KMSClient = kms(),
  ) {}

  /**
   * The signer of a stage's key (key id, ARN or alias; decision 295): SIGNING_KEY_ID names the release
   * key, DEV_SIGNING_KEY_ID the development key. A function gets the variable of a key it was granted only.
   */
  static fromEnv(stage: Stage = 'RELEASE'): KmsSigner {
    return new KmsSigner(
      stage === 'RELEASE' ? requireEnv('SIGNING_KEY_ID') : requireEnv('DEV_SIGNING_KEY_ID'),
    );
  }

  async sign(digest: Uint8Array): Promise<Uint8Array> {
    if (digest.length !== 32)
      throw new Error(`expected a 32-byte SHA-256 digest, got ${digest.length} bytes`);
    const r = await this.client.send(
      new SignCommand({
        KeyId: this.keyId,
        Message: digest,
        MessageType: 'DIGEST',
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );
    if (!r.Signature?.length) throw new Error(`KMS returned no signature for key ${this.keyId}`);
    // KMS does not promise low-S; the format requires it (docs/package-format.md), so normalise here
    return toLowS(r.Signature);
  }

  publicKeyPem(): Promise<string> {
    this.publicPem ??= this.fetchPublicKey().catch((e: unknown) => {
      // a failed fetch must not be cached: the next call tries again
      this.publicPem = undefined;
      throw e;
    });
    return this.publicPem;
  }

  private async fetchPublicKey(): Promise<string> {
    const r = await this.client.send(new GetPublicKeyCommand({ KeyId: this.keyId }));
    if (!r.PublicKey) throw new Error(`KMS returned no public key for ${this.keyId}`);
    if (r.KeySpec !== 'ECC_NIST_P256' || !r.SigningAlgorithms?.includes('ECDSA_SHA_256'))
      throw new Error(`KMS key ${this.keyId} is ${r.KeySpec}; packages need an ECC_NIST_P256 signing key`);
    return createPublicKey({ key: Buffer.from(r.PublicKey), format: 'der', type: 'spki' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
  }
}
