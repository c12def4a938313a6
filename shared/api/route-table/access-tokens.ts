import { CHANGES_ACCOUNTS, NON_ADMIN, USERS } from './groups';
import type { Route } from './types';

/**
 * Access tokens for pipelines (issue 27, decision 255): made, listed and revoked by a person signed in
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
