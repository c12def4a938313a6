import * as z from 'zod';
import { ACCESS_TOKEN_MAX_DAYS, type TokenEnded } from './access-token-endings';
import { NON_ADMIN_ROLES, type Role, UPLOADER_ROLES } from './roles';

/**
 * Access tokens for pipelines (decision 255): a granted person's token, with a name, an expiry
 * of at most 90 days and scopes from a short list. The secret `frp_<tokenId>_<secret>` is shown once; the
 * server keeps only the SHA-256 of it (a random 256-bit secret needs no slow hash) and finds the token by
 * its id (one GetItem). A route table row says which scope may call it (`tokenScope`); every other row,
 * decisions, notifications, users and admin above all, refuses tokens: a person must sign.
 */

export const ACCESS_TOKEN_SCOPES = ['resources:upload', 'packages:draft'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];

export const SCOPE_LABELS: Record<AccessTokenScope, string> = {
  'resources:upload': 'Upload resources (patches and models)',
  'packages:draft': 'Create draft packages, edit their header, attach a DCC, read them',
};

/** Roles that may hold a scope: the ones whose routes it opens (an admin holds none). */
export const SCOPE_ROLES: Record<AccessTokenScope, readonly Role[]> = {
  'resources:upload': UPLOADER_ROLES,
  'packages:draft': NON_ADMIN_ROLES,
};

export { ACCESS_TOKEN_MAX_DAYS };
/** tokens one person may hold at once (revoked and expired ones do not count) */
export const ACCESS_TOKENS_PER_USER = 20;
/** calls one token may make per window (each call that changes something counts: decision 257) */
export const ACCESS_TOKEN_CALLS_PER_WINDOW = 600;
export const ACCESS_TOKEN_WINDOW_SECONDS = 60;

export const ACCESS_TOKEN_PREFIX = 'frp_';

const TOKEN_ID = /^[0-9a-f]{16}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The bearer string of a token: prefix, id, secret. */
export const formatAccessToken = (tokenId: string, secret: string): string =>
  `${ACCESS_TOKEN_PREFIX}${tokenId}_${secret}`;

/** Whether a bearer value is meant as an access token (as opposed to a session JWT). */
export const isAccessTokenBearer = (bearer: string): boolean => bearer.startsWith(ACCESS_TOKEN_PREFIX);

/** The token id of a well-formed bearer access token, or null. */
export function accessTokenIdOf(bearer: string): string | null {
  if (!isAccessTokenBearer(bearer)) return null;
  const rest = bearer.slice(ACCESS_TOKEN_PREFIX.length);
  const cut = rest.indexOf('_');
  if (cut < 0) return null;
  const id = rest.slice(0, cut);
  const secret = rest.slice(cut + 1);
  return TOKEN_ID.test(id) && SECRET.test(secret) ? id : null;
}

export const ACCESS_TOKEN_ERR = {
  personMustSign:
    'Access tokens cannot make this call: approvals, rejections, signatures, deliveries, notifications, ' +
    'user and admin calls need a person to sign in and sign',
  missingScope: (scope: AccessTokenScope) => `This access token does not have the scope ${scope}`,
  notFound: 'Access token not found',
  notOwner: 'Only the owner of an access token or an administrator can revoke it',
  tooMany: `You hold ${ACCESS_TOKENS_PER_USER} access tokens; revoke one before creating another`,
  scopeNotForRole: (scope: AccessTokenScope, role: string) =>
    `scopes: ${scope} is not available to the role ${role}`,
  tooManyCalls: (seconds: number) =>
    `This access token made too many calls; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
} as const;

/** What a person asks for in settings (or over the API). */
export const createAccessTokenSchema = z.object({
  name: z
    .string({ error: 'name: give the token a name' })
    .trim()
    .min(1, 'name: give the token a name')
    .max(80, 'name: at most 80 characters')
    .regex(/^[\p{L}\p{N} ._:/@-]+$/u, 'name: letters, digits, spaces and . _ : / @ - only'),
  expiresInDays: z
    .number({ error: `expiresInDays: a whole number of days from 1 to ${ACCESS_TOKEN_MAX_DAYS}` })
    .int(`expiresInDays: a whole number of days from 1 to ${ACCESS_TOKEN_MAX_DAYS}`)
    .min(1, `expiresInDays: a whole number of days from 1 to ${ACCESS_TOKEN_MAX_DAYS}`)
    .max(ACCESS_TOKEN_MAX_DAYS, `expiresInDays: at most ${ACCESS_TOKEN_MAX_DAYS} days`),
  scopes: z
    .array(z.enum(ACCESS_TOKEN_SCOPES, { error: `scopes: one of ${ACCESS_TOKEN_SCOPES.join(', ')}` }))
    .min(1, 'scopes: choose at least one scope')
    .refine((s) => new Set(s).size === s.length, 'scopes: a scope is listed twice'),
});
export type CreateAccessToken = z.infer<typeof createAccessTokenSchema>;

export const accessTokenIdParamSchema = z.object({
  tokenId: z.string().regex(TOKEN_ID, 'tokenId: not an access token id'),
});

/** An access token as its owner and the admins see it (never its secret or hash). */
export interface AccessTokenView {
  id: string;
  name: string;
  scopes: AccessTokenScope[];
  owner: { id: string; name: string; email: string };
  createdAt: string;
  expiresAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
  /**
   * ACTIVE, EXPIRED, REVOKED, or ENDED (with its owner's role, account or password: decision 334) at the
   * time of the answer
   */
  state: AccessTokenState;
  /** why an ENDED token ended: its cause, its moment when known, and the words the list shows */
  ended?: TokenEnded & { text: string };
}

export const ACCESS_TOKEN_STATES = ['ACTIVE', 'EXPIRED', 'REVOKED', 'ENDED'] as const;
export type AccessTokenState = (typeof ACCESS_TOKEN_STATES)[number];

/** The state of a token by its own record (revoked, expired), before its owner is looked at. */
export function tokenState(
  t: { expiresAt: string; revokedAt?: string },
  now: Date,
): 'ACTIVE' | 'EXPIRED' | 'REVOKED' {
  if (t.revokedAt) return 'REVOKED';
  return Date.parse(t.expiresAt) <= now.getTime() ? 'EXPIRED' : 'ACTIVE';
}

/** How an actor's name is recorded when they acted through a token: the person, then which token. */
const VIA_TOKEN = " (access token '";
export const nameViaToken = (person: string, tokenName: string): string =>
  `${person}${VIA_TOKEN}${tokenName}')`;

/**
 * The person's own name from a recorded actor name: the record keeps which token acted, a mail greets the
 * person. The first marker counts: a person's name never holds it, a token's name may.
 */
export function personalName(recorded: string): string {
  const at = recorded.indexOf(VIA_TOKEN);
  return at < 0 ? recorded : recorded.slice(0, at);
}
