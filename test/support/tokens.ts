import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { LOCAL_KEY_SET_FILE, parseKeySet } from '../../lambdas/services/token-keys';

/** What the portal's tokens carry (lambdas/services/token-service.ts). */
export const TOKEN_ISSUER = 'firmware-release-portal';

/** A token signing key: its id (the JWT header's kid) and HMAC secret. */
export interface SigningKey {
  kid: string;
  secret: string;
}

/** The keys of a local stack's token key set (newest first), kept in its data folder. */
export function tokenKeysOf(dataDir: string): SigningKey[] {
  return parseKeySet(readFileSync(join(dataDir, LOCAL_KEY_SET_FILE), 'utf8')).keys;
}

/** The key a local stack signs new tokens with. */
export function tokenSecretOf(dataDir: string): SigningKey {
  return tokenKeysOf(dataDir)[0]!;
}

/** The kid of a token, unverified. */
export function kidOf(token: string): unknown {
  return (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: unknown })
    .kid;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface ForgeClaims {
  sub: string;
  tv: number;
  /** seconds from now; negative for an expired token */
  expiresIn?: number;
  issuer?: string;
  /** any extra claims (a forged role, say) */
  extra?: Record<string, unknown>;
}

/**
 * Signs claims with a key (the stack's, to forge well-signed tokens, or any other): a SigningKey puts its
 * kid in the header; a bare secret signs without one.
 */
export async function signToken(
  key: string | SigningKey,
  c: ForgeClaims,
  alg: 'HS256' | 'HS384' | 'HS512' = 'HS256',
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = c.expiresIn ?? 3600;
  return new SignJWT({ tv: c.tv, ...c.extra })
    .setProtectedHeader(typeof key === 'string' ? { alg, typ: 'JWT' } : { alg, typ: 'JWT', kid: key.kid })
    .setSubject(c.sub)
    .setIssuer(c.issuer ?? TOKEN_ISSUER)
    .setIssuedAt(Math.min(now, now + expiresIn - 60))
    .setExpirationTime(now + expiresIn)
    .sign(new TextEncoder().encode(typeof key === 'string' ? key : key.secret));
}

/** An unsigned token (`alg: none`) with otherwise valid claims. */
export function unsignedToken(c: ForgeClaims): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { tv: c.tv, sub: c.sub, iss: TOKEN_ISSUER, iat: now, exp: now + 3600, ...c.extra };
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}

/** A real token whose payload is changed while its header and signature are kept. */
export function tamperedToken(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  return `${header}.${b64url({ ...claims, ...change })}.${signature}`;
}

/** The claims of a token, unverified (to learn a real token's sub and tv). */
export function claimsOf(token: string): { sub: string; tv: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    sub: string;
    tv: number;
  };
}
