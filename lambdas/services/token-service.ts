import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { isLegacyKid, parseKeySet, signingKey, staticKeySource, type TokenKeySource } from './token-keys';

/**
 * JWTs signed with HS256 (pinned: a token naming any other algorithm, `none` included, is refused).
 * Header: alg, typ and kid, the key that signed it (token-keys.ts: new tokens use the newest key of the
 * set, a token is verified with the key its kid names; a token without a kid, or naming a key the set no
 * longer holds, is refused). Claims: sub (user id), tv (the user's token version, for revocation), iat,
 * exp, iss.
 */
const ALG = 'HS256';
const ISSUER = 'firmware-release-portal';

export interface TokenClaims {
  sub: string;
  tv: number;
}

const encode = (secret: string) => new TextEncoder().encode(secret);

export class TokenService {
  private readonly keys: TokenKeySource;
  /**
   * @param keys the key set's source, or one secret (a key set of one key: tests, scripts)
   */
  constructor(
    keys: TokenKeySource | string,
    private readonly ttlSeconds: number,
  ) {
    this.keys = typeof keys === 'string' ? staticKeySource(parseKeySet(keys)) : keys;
  }

  async issue(claims: TokenClaims, now: Date): Promise<string> {
    const key = signingKey(await this.keys.current());
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ tv: claims.tv })
      .setProtectedHeader({ alg: ALG, typ: 'JWT', kid: key.kid })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(encode(key.secret));
  }

  /** The claims of a valid token, or null for any invalid, expired, foreign or retired-key one. */
  async verify(token: string, now: Date): Promise<TokenClaims | null> {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return null; // not a JWS at all
    }
    try {
      // a token without a kid was issued before key ids: only the key of that time (a plain secret,
      // kid k0-…) verifies it, and only while the set still holds it
      const key =
        kid === undefined
          ? (await this.keys.current()).keys.find((k) => isLegacyKid(k.kid))
          : typeof kid === 'string' && kid.length > 0 && kid.length <= 64
            ? await this.keys.forKid(kid)
            : undefined;
      if (!key) return null;
      const { payload } = await jwtVerify(token, encode(key.secret), {
        algorithms: [ALG],
        issuer: ISSUER,
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
      return { sub: payload.sub, tv: payload.tv };
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }
}
