import * as z from 'zod';
import { TOKEN_ENDING_CAUSES } from '../../domain/access-token-endings';
import {
  ACCESS_TOKEN_SCOPES,
  ACCESS_TOKEN_STATES,
  accessTokenIdParamSchema,
  createAccessTokenSchema,
} from '../../domain/access-tokens';
import { answer } from '../contracts/responses';
import { CHANGES_ACCOUNTS, NON_ADMIN, USERS } from './groups';
import type { Route, RouteRequest } from './types';

/**
 * Access tokens for pipelines (decision 255): made, listed and revoked by a person signed in
 * (no token may call these rows: a token never makes or ends a token).
 */
export const ACCESS_TOKEN_ROUTES = [
  {
    id: 'createAccessToken',
    method: 'POST',
    path: '/access-tokens',
    access: NON_ADMIN,
    uses: CHANGES_ACCOUNTS,
    summary:
      'Create an access token (name, expiry of at most 90 days, scopes resources:upload and packages:draft); ' +
      'the secret is in this answer only',
  },
  {
    id: 'listAccessTokens',
    method: 'GET',
    path: '/access-tokens',
    access: 'signedIn',
    uses: { tables: USERS },
    summary: "The caller's access tokens (an admin: every token), never their secrets",
  },
  {
    id: 'revokeAccessToken',
    method: 'DELETE',
    path: '/access-tokens/{tokenId}',
    access: 'signedIn',
    uses: CHANGES_ACCOUNTS,
    summary: 'Revoke an access token at once (its owner, or an admin)',
  },
] as const satisfies readonly Route[];

/** Requests of the access token rows. */
export const ACCESS_TOKEN_CONTRACT = {
  createAccessToken: { body: createAccessTokenSchema, maxBodyBytes: 4 * 1024, statuses: [201] },
  listAccessTokens: {},
  revokeAccessToken: { params: accessTokenIdParamSchema },
} as const satisfies { [Id in (typeof ACCESS_TOKEN_ROUTES)[number]['id']]: RouteRequest };

const accessToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(ACCESS_TOKEN_SCOPES)),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().optional(),
  revokedAt: z.string().optional(),
  state: z.enum(ACCESS_TOKEN_STATES),
  ended: z
    .object({ cause: z.enum(TOKEN_ENDING_CAUSES), at: z.string().optional(), text: z.string() })
    .optional()
    .meta({ description: "why an ENDED token ended: its owner's role, account or password changed" }),
});

/** Answers of the access token rows: plain JSON objects, not JSON text. */
export const ACCESS_TOKEN_RESPONSES = {
  createAccessToken: answer({
    token: z.string().meta({ description: 'the bearer secret: shown once, stored only as its SHA-256' }),
    accessToken,
  }),
  listAccessTokens: answer({ accessTokens: z.array(accessToken) }),
  revokeAccessToken: answer({ accessToken }),
} as const satisfies { [Id in (typeof ACCESS_TOKEN_ROUTES)[number]['id']]: z.ZodType };
