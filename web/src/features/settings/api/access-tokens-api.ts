import type { CreateAccessToken } from '@shared/domain/access-tokens';
import { callApi } from '@/lib/api-client/api-client';

/** POST /access-tokens: the answer carries the secret, shown once. */
export function createAccessToken(body: CreateAccessToken) {
  return callApi('createAccessToken', { body }, { handle: [400, 403] });
}

/** GET /access-tokens: the caller's tokens (an admin: every token). */
export function listAccessTokens() {
  return callApi('listAccessTokens', {}, { handle: 'all', loader: false });
}

/** DELETE /access-tokens/{tokenId}: revoked at once. */
export function revokeAccessToken(tokenId: string) {
  return callApi('revokeAccessToken', { params: { tokenId } }, { handle: [404] });
}
