import * as z from 'zod';
import { visibleText } from '../contracts/common';
import { oneProof, signatureProofSchema, signatureProofShape } from '../contracts/packages';
import {
  addPasskeySchema,
  ceremonyAnswerSchema,
  credentialIdSchema,
  passkeySignInSchema,
  passkeyViewSchema,
  renamePasskeySchema,
} from '../contracts/passkeys';
import { answer, jsonText } from '../contracts/responses';
import { ADMIN, CHANGES_ACCOUNTS, USERS } from './groups';
import type { Route, RouteRequest } from './types';

/**
 * Passkeys (WebAuthn, decisions 322–323): the second step of a sign-in, Settings → Passkeys, the challenge
 * of a signature, and the admins' view of each user's sign-in methods with the two-admin removal of a lost
 * passkey. Ceremonies and passkeys live in the users table.
 */
export const PASSKEY_ROUTES = [
  {
    id: 'loginPasskey',
    method: 'POST',
    path: '/user/login/passkey',
    access: 'public',
    // the second factor of a sign-in: throttled per (account, source) like the password
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    summary:
      'Finish a sign-in with a passkey: the ticket of the first factor and the assertion; answers as /user/login',
  },
  {
    id: 'listPasskeys',
    method: 'GET',
    path: '/passkeys',
    access: 'signedIn',
    uses: { tables: USERS },
    ungranted: true,
    summary: "The caller's passkeys (name, added, last use) and whether their role must sign with one",
  },
  {
    id: 'passkeyRegistrationOptions',
    method: 'POST',
    path: '/passkeys/registration-options',
    access: 'signedIn',
    // confirmed with the password (hashing, the sign-in throttle), a passkey or a company ticket
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    memoryMb: 1024,
    ungranted: true,
    summary:
      'Start adding a passkey, confirmed with the password, a passkey or a fresh company sign-in: a registration challenge',
  },
  {
    id: 'addPasskey',
    method: 'POST',
    path: '/passkeys',
    access: 'signedIn',
    uses: CHANGES_ACCOUNTS,
    ungranted: true,
    summary: 'Register the new passkey of a registration challenge, with its name',
  },
  {
    id: 'renamePasskey',
    method: 'PATCH',
    path: '/passkeys/{passkeyId}',
    access: 'signedIn',
    uses: CHANGES_ACCOUNTS,
    ungranted: true,
    summary: 'Rename one of the caller’s passkeys',
  },
  {
    id: 'removePasskey',
    method: 'DELETE',
    path: '/passkeys/{passkeyId}',
    access: 'signedIn',
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    memoryMb: 1024,
    ungranted: true,
    summary:
      'Remove one of the caller’s passkeys, confirmed with the password or a passkey; the account’s other sessions end',
  },
  {
    id: 'passkeySignatureOptions',
    method: 'POST',
    path: '/passkeys/signature-options',
    access: 'signedIn',
    // the challenge is kept with the users (single use, two minutes); nothing is audited until it is used
    uses: { tables: USERS, writes: USERS },
    ungranted: true,
    summary:
      'A challenge (user verification required) for signing a decision or confirming an account change',
  },
  {
    id: 'adminUserSignInMethods',
    method: 'GET',
    path: '/admin/users/{userId}/sign-in-methods',
    access: ADMIN,
    uses: { tables: USERS },
    summary:
      "A user's sign-in methods: the password and the passkeys, with any removal waiting for a second admin",
  },
  {
    id: 'adminDecidePasskeyRemoval',
    method: 'POST',
    path: '/admin/users/{userId}/passkeys/{passkeyId}/removal',
    access: ADMIN,
    uses: { ...CHANGES_ACCOUNTS, clientSource: true },
    memoryMb: 1024,
    summary:
      'Remove a lost passkey of a user (signed; one admin proposes, a second confirms; the user’s sessions end)',
  },
] as const satisfies readonly Route[];

const passkeyParam = z.object({ passkeyId: credentialIdSchema });
const userParam = z.object({ userId: z.string().min(1).max(64) });
const SMALL = 4096;
const ASSERTION = 32 * 1024;

/** Requests of the passkey rows. */
export const PASSKEY_CONTRACT = {
  loginPasskey: { body: passkeySignInSchema, maxBodyBytes: ASSERTION },
  listPasskeys: {},
  passkeyRegistrationOptions: { body: signatureProofSchema, maxBodyBytes: ASSERTION },
  addPasskey: { body: addPasskeySchema, maxBodyBytes: 160 * 1024, statuses: [201] },
  renamePasskey: { params: passkeyParam, body: renamePasskeySchema, maxBodyBytes: SMALL },
  removePasskey: { params: passkeyParam, body: signatureProofSchema, maxBodyBytes: ASSERTION },
  passkeySignatureOptions: {},
  adminUserSignInMethods: { params: userParam },
  adminDecidePasskeyRemoval: {
    params: userParam.extend(passkeyParam.shape),
    body: z
      .object({
        ...signatureProofShape,
        reason: visibleText('note', 'Reason', 'A reason is required: say why the passkey is removed', 2000),
      })
      .superRefine(oneProof),
    maxBodyBytes: ASSERTION,
  },
} as const satisfies { [Id in (typeof PASSKEY_ROUTES)[number]['id']]: RouteRequest };

const passkeys = z.array(passkeyViewSchema);

/** Answers of the passkey rows. */
export const PASSKEY_RESPONSES = {
  loginPasskey: answer({
    token: z.string(),
    user: jsonText('the user (PublicUser)'),
    mustChangePassword: z.literal(true).optional(),
  }),
  listPasskeys: answer({
    passkeys,
    /** the caller's role signs only with a passkey on this stage */
    requiredForSignatures: z.boolean(),
    stageRequiresPasskeys: z.boolean(),
    requiredRoles: z.array(z.string()),
  }),
  passkeyRegistrationOptions: ceremonyAnswerSchema,
  addPasskey: answer({ passkey: passkeyViewSchema }),
  renamePasskey: answer({ passkey: passkeyViewSchema }),
  removePasskey: answer({ status: z.literal('REMOVED'), message: z.string(), token: z.string() }),
  passkeySignatureOptions: ceremonyAnswerSchema,
  adminUserSignInMethods: answer({
    user: jsonText('the user (PublicUser)'),
    password: z.boolean(),
    passkeys,
  }),
  adminDecidePasskeyRemoval: answer({
    outcome: z.enum(['PROPOSED', 'REMOVED']),
    message: z.string(),
    passkeys,
  }),
} as const satisfies { [Id in (typeof PASSKEY_ROUTES)[number]['id']]: z.ZodType };
