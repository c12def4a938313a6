import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for the integration tests (decision 322): it answers the portal's
 * ceremonies as a browser with a platform authenticator would (attestation "none", ES256 keys from
 * node:crypto, CBOR by @simplewebauthn's own helper), and can be told to misbehave: another origin or RP
 * id, no user verification, a counter that goes backwards (a clone). Nothing of it runs in the product.
 */

const b64u = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Uint8Array;
  counter: number;
}

/** What the portal's options carry that an authenticator reads. */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export interface Behaviour {
  /** the page's origin the browser reports (default: the authenticator's) */
  origin?: string;
  /** the RP id whose hash goes into the authenticator data (default: the options') */
  rpId?: string;
  /** user verified (PIN, biometrics); default true */
  userVerified?: boolean;
  /** the signature counter to report instead of the next one */
  counter?: number;
  /** which credential answers (default: the first registered) */
  credentialId?: string;
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(readonly origin: string) {}

  /** The credential ids this authenticator holds, base64url. */
  get ids(): string[] {
    return this.credentials.map((c) => b64u(c.id));
  }

  /** navigator.credentials.create(): a new ES256 credential, as RegistrationResponseJSON. */
  register(options: CreationOptions, how: Behaviour = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key of an EC2 P-256 key with ES256: kty 2, alg -7, crv 1, x, y
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const cred: Credential = { id: randomBytes(16), privateKey, cose, counter: 0 };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(cred.id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, cred.id, Buffer.from(cose)]);
    const authData = this.authData(how.rpId ?? options.rp.id ?? '', how, 0x40, 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.credentials.push(cred);
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, how),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** navigator.credentials.get(): an assertion, as AuthenticationResponseJSON. */
  assert(options: RequestOptions, how: Behaviour = {}) {
    const cred = how.credentialId
      ? this.credentials.find((c) => b64u(c.id) === how.credentialId)
      : this.credentials[0];
    if (!cred) throw new Error('this authenticator holds no such credential');
    cred.counter = how.counter ?? cred.counter + 1;
    const authData = this.authData(how.rpId ?? options.rpId ?? '', how, 0, cred.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, how);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      cred.privateKey,
    );
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: b64u(authData),
        signature: b64u(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** A copy of this authenticator's keys and counters, as an attacker who cloned it would hold. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator(this.origin);
    for (const c of this.credentials) copy.credentials.push({ ...c });
    return copy;
  }

  private clientData(type: string, challenge: string, how: Behaviour): string {
    return b64u(
      Buffer.from(JSON.stringify({ type, challenge, origin: how.origin ?? this.origin, crossOrigin: false })),
    );
  }

  /** rpIdHash | flags (UP, UV, extra) | signCount | attested credential data */
  private authData(rpId: string, how: Behaviour, extraFlags: number, counter: number, attested?: Buffer) {
    const flags = 0x01 | (how.userVerified === false ? 0 : 0x04) | extraFlags;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }
}
