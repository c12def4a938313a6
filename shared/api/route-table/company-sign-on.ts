import * as z from 'zod';
import {
  COMPANY_LINK_OUTCOMES,
  companyCallbackSchema,
  companyLinkDecisionSchema,
  linkCompanyIdentitySchema,
  requestCompanyLinkSchema,
} from '../contracts/company-sign-on';
import { secondFactorSchema } from '../contracts/passkeys';
import { answer, jsonText } from '../contracts/responses';
import { ADMIN, CHANGES_ACCOUNTS } from './groups';
import type { Route, RouteRequest } from './types';

/**
 * Company sign-on (OpenID Connect) beside the spec's sign-in (decision 315): the backend runs the
 * authorization code flow with PKCE, state and nonce against the stage's identity provider and answers
 * with the portal's own session token. Public rows are limited per source like password sign-in.
 */
export const COMPANY_SIGN_ON_ROUTES = [
  {
    id: 'companySignOnInfo',
    method: 'GET',
    path: '/company-sign-on',
    access: 'public',
    uses: { tables: [] },
    summary:
      'Whether the stage names a company identity provider, its name, and whether it is the only way in',
  },
  {
    id: 'startCompanySignOn',
    method: 'POST',
    path: '/company-sign-on/start',
    access: 'public',
    // the sign-in under way is kept in the users table; a quota per source
    uses: { tables: ['users'], writes: ['users'], clientSource: true, companyIdp: true },
    summary: 'Start a sign-in at the company identity provider: its address and the binding of this window',
  },
  {
    id: 'companySignOnCallback',
    method: 'POST',
    path: '/company-sign-on/callback',
    access: 'public',
    uses: { ...CHANGES_ACCOUNTS, clientSource: true, companyIdp: true },
    summary:
      'The answer of the identity provider: a session (as POST /user/login), an offer to link an existing account, or a signature confirmation ticket',
  },
  {
    id: 'linkCompanyIdentity',
    method: 'POST',
    path: '/company-sign-on/link',
    access: 'public',
    // the portal password is checked (scrypt) and throttled as at sign-in
    uses: { ...CHANGES_ACCOUNTS, clientSource: true, companyIdp: true },
    memoryMb: 1024,
    summary: 'Link the company identity to the existing account with its portal password, and sign in',
  },
  {
    id: 'requestCompanyLink',
    method: 'POST',
    path: '/company-sign-on/link-request',
    access: 'public',
    uses: { ...CHANGES_ACCOUNTS, companyIdp: true },
    summary: 'Ask two administrators to link the company identity to the existing account',
  },
  {
    id: 'startCompanyReauth',
    method: 'POST',
    path: '/company-sign-on/reauth',
    access: 'signedIn',
    uses: { tables: ['users'], writes: ['users'], clientSource: true, companyIdp: true },
    summary:
      'Start a fresh sign-in at the company (prompt=login, max_age) whose ticket confirms an electronic signature',
  },
  {
    id: 'adminDecideCompanyLinks',
    method: 'POST',
    path: '/admin/users/company-links',
    access: ADMIN,
    uses: { ...CHANGES_ACCOUNTS, clientSource: true, companyIdp: true },
    memoryMb: 1024,
    summary:
      'Link requested company identities (signed; one admin proposes, a second confirms), refuse them, or unlink one',
  },
] as const satisfies readonly Route[];

const SMALL = 4096;

/** Requests of the company sign-on rows. */
export const COMPANY_SIGN_ON_CONTRACT = {
  companySignOnInfo: {},
  startCompanySignOn: { maxBodyBytes: SMALL },
  companySignOnCallback: { body: companyCallbackSchema, maxBodyBytes: 16_384 },
  linkCompanyIdentity: { body: linkCompanyIdentitySchema, maxBodyBytes: SMALL },
  requestCompanyLink: { body: requestCompanyLinkSchema, maxBodyBytes: SMALL },
  startCompanyReauth: { maxBodyBytes: SMALL },
  adminDecideCompanyLinks: { body: companyLinkDecisionSchema, maxBodyBytes: 16_384 },
} as const satisfies { [Id in (typeof COMPANY_SIGN_ON_ROUTES)[number]['id']]: RouteRequest };

const started = answer({
  authorizationUrl: z
    .string()
    .meta({ description: "the provider's authorization endpoint, to open in this window" }),
  binding: z.string().meta({ description: 'kept by this window and sent back with the answer' }),
  expiresAt: z.string(),
});

/** A session, exactly as POST /user/login answers it. */
const signedIn = z.object({
  outcome: z.literal('SIGNED_IN'),
  token: z.string(),
  user: jsonText('the user (PublicUser)'),
  mustChangePassword: z.literal(true).optional(),
});

/** The first factor passed at the company; the account holds a passkey, whose step follows (decision 322). */
const secondFactorOwed = z.object({
  outcome: z.literal('SECOND_FACTOR'),
  secondFactor: secondFactorSchema,
});

/** Answers of the company sign-on rows. */
export const COMPANY_SIGN_ON_RESPONSES = {
  companySignOnInfo: answer({
    enabled: z.boolean(),
    companyName: z.string().optional(),
    companyOnly: z.boolean().optional(),
  }),
  startCompanySignOn: started,
  companySignOnCallback: z.discriminatedUnion('outcome', [
    signedIn,
    secondFactorOwed,
    z.object({
      outcome: z.literal('LINK_REQUIRED'),
      linkTicket: z.string(),
      email: z.string().meta({ description: 'the existing account the identity may be linked to' }),
      expiresAt: z.string(),
    }),
    z.object({ outcome: z.literal('REAUTHENTICATED'), reauthTicket: z.string(), expiresAt: z.string() }),
  ]),
  linkCompanyIdentity: z.discriminatedUnion('outcome', [signedIn, secondFactorOwed]),
  requestCompanyLink: answer({ status: z.literal('REQUESTED'), message: z.string() }),
  startCompanyReauth: started,
  adminDecideCompanyLinks: answer({
    status: z.literal('DECIDED'),
    message: z.string(),
    outcomes: z.record(z.string(), z.enum(COMPANY_LINK_OUTCOMES)),
  }),
} as const satisfies { [Id in (typeof COMPANY_SIGN_ON_ROUTES)[number]['id']]: z.ZodType };
