import { createHash, randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyRecord } from '../../ports/passkey-repository';
import type { UserRecord } from '../../ports/user-repository';

/**
 * The WebAuthn ceremonies, by @simplewebauthn/server (decision 322): options with a fresh challenge, and
 * the checks of what the browser answers (challenge, origin, RP id, signature, counter, user
 * verification). Nothing here checks bytes itself; it only says what the library is asked to require.
 */

/** Where passkeys are valid: the relying party (the portal's host name) and the web origins it is served on. */
export interface WebAuthnConfig {
  rpId: string;
  rpName: string;
  /** every origin the SPA is served from (https://<domain> in AWS; http://localhost:<port> locally) */
  origins: string[];
  /** the stage requires passkeys for the deciding roles and admins (passkeyRequiredFor) */
  required: boolean;
}

/**
 * The library, loaded at the first ceremony of a function instance. Its X.509 and ASN.1 modules (~250 KB,
 * with a dependency-injection container set up at load) ran at every cold start of every Lambda that
 * bundles the identity service or the signature check, most of which never see a passkey; loading them
 * here keeps those inside their init budget (docs/performance.md, "Lambda init").
 */
const library = () => import('@simplewebauthn/server');
const helpers = () => import('@simplewebauthn/server/helpers');

/** ES256, EdDSA and RS256: what platform and roaming authenticators offer (no post-quantum ones yet). */
const ALGORITHMS = [-7, -8, -257];

/** A ceremony id handed to the browser (32 random bytes), and the SHA-256 the server stores instead. */
export function newCeremonyId(): { id: string; hash: string } {
  const id = randomBytes(32).toString('base64url');
  return { id, hash: ceremonyHash(id) };
}
export const ceremonyHash = (id: string): string => createHash('sha256').update(id).digest('hex');

export async function registrationOptions(
  cfg: WebAuthnConfig,
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  existing: readonly Pick<PasskeyRecord, 'id' | 'transports'>[],
  timeoutMs: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await library();
  return generateRegistrationOptions({
    rpName: cfg.rpName,
    rpID: cfg.rpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    timeout: timeoutMs,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.id,
      ...(p.transports ? { transports: p.transports } : {}),
    })),
    // every passkey must be able to sign: signatures require user verification (PIN, biometrics)
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

export async function assertionOptions(
  cfg: WebAuthnConfig,
  passkeys: readonly Pick<PasskeyRecord, 'id' | 'transports'>[],
  userVerification: 'required' | 'preferred',
  timeoutMs: number,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await library();
  return generateAuthenticationOptions({
    rpID: cfg.rpId,
    timeout: timeoutMs,
    userVerification,
    allowCredentials: passkeys.map((p) => ({
      id: p.id,
      ...(p.transports ? { transports: p.transports as never } : {}),
    })),
  });
}

/** A verified new credential, as the passkey record keeps it. */
export type NewCredential = Pick<
  PasskeyRecord,
  'id' | 'publicKey' | 'counter' | 'transports' | 'deviceType' | 'backedUp'
>;

/** The new credential, or null when the library refuses the answer (any reason: nothing is stored). */
export async function verifyNewCredential(
  cfg: WebAuthnConfig,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<NewCredential | null> {
  const [{ verifyRegistrationResponse }, { isoBase64URL }] = await Promise.all([library(), helpers()]);
  try {
    const r = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!r.verified) return null;
    const { credential, credentialDeviceType, credentialBackedUp } = r.registrationInfo;
    return {
      id: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      ...(credential.transports?.length ? { transports: credential.transports } : {}),
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    };
  } catch {
    return null;
  }
}

/** What an assertion check found: the new counter, or why it was refused. */
export type AssertionResult =
  | { ok: true; newCounter: number; userVerified: boolean }
  | { ok: false; reason: 'counter' | 'userVerification' | 'invalid' };

/**
 * Checks an assertion of `passkey` against the challenge, the origins and the RP id, its signature and its
 * counter, with user verification when `requireUserVerification`. The library says why it refused only in
 * its error's words: the counter and user-verification refusals are told apart so the user (and the audit
 * trail, for a counter going backwards) hears the real reason.
 */
export async function verifyAssertion(
  cfg: WebAuthnConfig,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: PasskeyRecord,
  requireUserVerification: boolean,
): Promise<AssertionResult> {
  const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([library(), helpers()]);
  try {
    const r = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        ...(passkey.transports ? { transports: passkey.transports as never } : {}),
      },
      requireUserVerification,
    });
    if (!r.verified) return { ok: false, reason: 'invalid' };
    const { newCounter, userVerified } = r.authenticationInfo;
    return { ok: true, newCounter, userVerified };
  } catch (e) {
    const message = e instanceof Error ? e.message : '';
    if (/counter value/i.test(message)) return { ok: false, reason: 'counter' };
    if (/user verification/i.test(message)) return { ok: false, reason: 'userVerification' };
    return { ok: false, reason: 'invalid' };
  }
}
