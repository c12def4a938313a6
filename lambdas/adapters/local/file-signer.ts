import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Stage } from '../../../shared/api/contracts/resources';
import { requireEnv } from '../../config/env';
import type { Signer } from '../../ports/signer';
import { signDigestP256 } from './ecdsa-p256';

interface LoadedKey {
  /** the 32-byte secret scalar */
  d: Uint8Array;
  publicPem: string;
  keyId: string;
}

/**
 * The local stack's signer (DESIGN §1): an ECDSA P-256 key kept as a PKCS#8 PEM file, made on first use
 * with mode 0600. A key file others can read is refused, as ssh does, rather than silently used.
 */
export class FileSigner implements Signer {
  private key: LoadedKey | undefined;

  constructor(private readonly path: string) {}

  /**
   * The signer of a stage's key file (decision 295): SIGNING_KEY_FILE holds the release key (the key every
   * package was signed with before the keys were split), DEV_SIGNING_KEY_FILE the development key.
   */
  static fromEnv(stage: Stage = 'RELEASE'): FileSigner {
    return new FileSigner(
      stage === 'RELEASE' ? requireEnv('SIGNING_KEY_FILE') : requireEnv('DEV_SIGNING_KEY_FILE'),
    );
  }

  get keyId(): string {
    return this.load().keyId;
  }

  async sign(digest: Uint8Array): Promise<Uint8Array> {
    return signDigestP256(this.load().d, digest);
  }

  async publicKeyPem(): Promise<string> {
    return this.load().publicPem;
  }

  // Synchronous so keyId can stay a plain property of the port; it runs once per process.
  private load(): LoadedKey {
    this.key ??= describeKey(readOrCreate(this.path), this.path);
    return this.key;
  }
}

function readOrCreate(path: string): KeyObject {
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077)
      throw new Error(
        `Signing key ${path} has mode ${mode.toString(8)}; it must be readable by its owner only (chmod 600)`,
      );
    return createPrivateKey(readFileSync(path, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // 'wx': if another process made the key a moment ago, keep theirs instead of replacing it
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    return privateKey;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return createPrivateKey(readFileSync(path, 'utf8'));
    throw e;
  }
}

function describeKey(privateKey: KeyObject, path: string): LoadedKey {
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error(`Signing key ${path} is not an ECDSA P-256 key`);
  const jwk = privateKey.export({ format: 'jwk' });
  const d = new Uint8Array(Buffer.from(jwk.d!, 'base64url'));
  const pub = createPublicKey(privateKey);
  const spki = pub.export({ type: 'spki', format: 'der' });
  return {
    d,
    publicPem: pub.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: `local-p256-${createHash('sha256').update(spki).digest('hex').slice(0, 16)}`,
  };
}
