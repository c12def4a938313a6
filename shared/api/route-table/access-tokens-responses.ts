import * as z from 'zod';
import { ACCESS_TOKEN_SCOPES } from '../../domain/access-tokens';
import { answer } from '../contracts/responses';
import type { ACCESS_TOKEN_ROUTES } from './access-tokens';

const accessToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(ACCESS_TOKEN_SCOPES)),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().optional(),
  revokedAt: z.string().optional(),
  state: z.enum(['ACTIVE', 'EXPIRED', 'REVOKED']),
});

/** Answers of the access token rows (issue 27): plain JSON objects, not JSON text. */
export const ACCESS_TOKEN_RESPONSES = {
  createAccessToken: answer({
    token: z.string().meta({ description: 'the bearer secret: shown once, stored only as its SHA-256' }),
    accessToken,
  }),
  listAccessTokens: answer({ accessTokens: z.array(accessToken) }),
  revokeAccessToken: answer({ accessToken }),
} as const satisfies { [Id in (typeof ACCESS_TOKEN_ROUTES)[number]['id']]: z.ZodType };
