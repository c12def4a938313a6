import { accessTokenIdParamSchema, createAccessTokenSchema } from '../../domain/access-tokens';
import type { ACCESS_TOKEN_ROUTES } from './access-tokens';
import type { RouteRequest } from './types';

/** Requests of the access token rows (issue 27). */
export const ACCESS_TOKEN_CONTRACT = {
  createAccessToken: { body: createAccessTokenSchema, maxBodyBytes: 4 * 1024, statuses: [201] },
  listAccessTokens: {},
  revokeAccessToken: { params: accessTokenIdParamSchema },
} as const satisfies { [Id in (typeof ACCESS_TOKEN_ROUTES)[number]['id']]: RouteRequest };
