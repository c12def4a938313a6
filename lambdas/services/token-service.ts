import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * JWTs signed with HS256 (pinned: a token naming any other algorithm, `none` included, is refused).
 * Claims: sub (user id), tv (the user's token version, for revocation), iat, exp, iss.
 */
const ALG = 'HS256';
const ISSUER = 'firmware-release-portal';

export interface TokenClaims {
  sub: string;
  tv: number;
}

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    if (secret.length < 32) throw new Error('token secret must be at least 32 characters');
    this.key = new TextEncoder().encode(secret);
  }

  async issue(claims: TokenClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ tv: claims.tv })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for any invalid, expired or foreign one. */
  async verify(token: string, now: Date): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
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
