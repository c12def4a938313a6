import * as z from 'zod';
import { visibleText } from './common';

/**
 * Passkey requests (decision 322): the JSON forms of WebAuthn responses as @simplewebauthn/browser sends
 * them. The schemas check the shape and bound every size; what the bytes mean (challenge, origin, RP id,
 * signature, counter, user verification) is checked by @simplewebauthn/server in the service.
 */

const b64url = (what: string, max: number) =>
  z
    .string({ error: `${what} must be base64url text` })
    .min(1, { error: `${what} must not be empty` })
    .max(max, { error: `${what} is too long` })
    .regex(/^[A-Za-z0-9_-]+$/, { error: `${what} must be base64url text` });

/** A credential id as it travels in paths and bodies (WebAuthn allows up to 1023 bytes). */
export const credentialIdSchema = b64url('The passkey id', 1400);

const extensions = z.record(z.string(), z.unknown()).default({});
const attachment = z.enum(['platform', 'cross-platform']).optional();

/** What navigator.credentials.get() gave, as JSON (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object(
  {
    id: credentialIdSchema,
    rawId: credentialIdSchema,
    type: z.literal('public-key', { error: 'type must be public-key' }),
    response: z.object({
      clientDataJSON: b64url('clientDataJSON', 8192),
      authenticatorData: b64url('authenticatorData', 8192),
      signature: b64url('signature', 2048),
      userHandle: b64url('userHandle', 256).optional(),
    }),
    clientExtensionResults: extensions,
    authenticatorAttachment: attachment,
  },
  { error: 'Send the passkey answer of the browser (an AuthenticationResponseJSON)' },
);

/** What navigator.credentials.create() gave, as JSON (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object(
  {
    id: credentialIdSchema,
    rawId: credentialIdSchema,
    type: z.literal('public-key', { error: 'type must be public-key' }),
    response: z.object({
      clientDataJSON: b64url('clientDataJSON', 8192),
      attestationObject: b64url('attestationObject', 65536),
      authenticatorData: b64url('authenticatorData', 65536).optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url('publicKey', 8192).optional(),
    }),
    clientExtensionResults: extensions,
    authenticatorAttachment: attachment,
  },
  { error: 'Send the passkey answer of the browser (a RegistrationResponseJSON)' },
);

/** The id of a ceremony the server started (a random token; the server keeps only its SHA-256). */
export const ceremonyIdSchema = z
  .string({ error: 'ceremonyId is required: start again' })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'ceremonyId is not one the portal issued: start again' });

/** A passkey as the proof of a signature or of an account change: the ceremony and the browser's answer. */
export const passkeyProofSchema = z.object(
  { ceremonyId: ceremonyIdSchema, response: authenticationResponseSchema },
  { error: 'passkey must be { ceremonyId, response }' },
);
export type PasskeyProof = z.infer<typeof passkeyProofSchema>;

export const passkeyNameSchema = visibleText(
  'name',
  'Passkey name',
  'Give the passkey a name, e.g. "Work laptop"',
  60,
);

/** Body of POST /passkeys: the ceremony, the new credential and its name. */
export const addPasskeySchema = z.object({
  ceremonyId: ceremonyIdSchema,
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type AddPasskeyRequest = z.infer<typeof addPasskeySchema>;

export const renamePasskeySchema = z.object({ name: passkeyNameSchema });

/** Body of POST /user/login/passkey: the ticket of the first factor and the browser's answer. */
export const passkeySignInSchema = z.object({
  ticket: ceremonyIdSchema,
  response: authenticationResponseSchema,
});

/** A passkey as its owner and the admins see it (never its key). */
export const passkeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().optional(),
  /** single device, or synced between devices (multiDevice) */
  deviceType: z.enum(['singleDevice', 'multiDevice']).optional(),
  backedUp: z.boolean().optional(),
  /** admins only: a removal another admin proposed, waiting for a second admin */
  removalProposal: z
    .object({
      proposedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      proposedAt: z.string(),
      expiresAt: z.string(),
      reason: z.string(),
    })
    .optional(),
});
export type PasskeyView = z.infer<typeof passkeyViewSchema>;

/** The options a ceremony's browser call takes (PublicKeyCredential*OptionsJSON), as the server made them. */
export const publicKeyOptionsSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON' });

export const ceremonyAnswerSchema = z.object({
  ceremonyId: z.string(),
  expiresAt: z.string(),
  publicKey: publicKeyOptionsSchema,
});

/** The passkey step a sign-in owes (decision 322): a single-use ticket and the browser prompt's options. */
export const secondFactorSchema = z.object({
  kind: z.literal('passkey'),
  ticket: z.string(),
  expiresAt: z.string(),
  publicKey: publicKeyOptionsSchema,
});
