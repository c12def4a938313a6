import * as oidc from 'openid-client';
import { REAUTH_MAX_AGE_SECONDS } from '../../../shared/domain/company-sign-on';
import {
  type AuthorizationRequest,
  type CallbackChecks,
  type IdentityProvider,
  IdentityProviderError,
  type VerifiedIdentity,
} from '../../ports/identity-provider';

/**
 * The company's OpenID provider through openid-client (certified relying party, decision 315): discovery,
 * the authorization code flow with PKCE (S256), state and nonce, and every check of the answer — the
 * authorization response's `iss` (RFC 9207) and state, the code exchange with the client secret, the ID
 * token's signature against the issuer's JWKS, its iss, aud, exp, iat, nonce and, for a fresh sign-in,
 * auth_time against max_age. Nothing here is hand-written cryptography.
 */
export interface OpenIdClientSettings {
  issuer: string;
  clientId: string;
  /** read on first use (Secrets Manager in AWS), never logged */
  clientSecret: () => Promise<string>;
  /** the SPA page the provider sends the browser back to */
  redirectUri: string;
}

const SCOPE = 'openid email profile';

/** Plain http only for a provider on this machine (the local stack's); anything else must be https. */
const isLoopback = (u: URL) =>
  u.protocol === 'http:' &&
  (u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]');

export class OpenIdClientProvider implements IdentityProvider {
  private config: Promise<oidc.Configuration> | undefined;

  constructor(private readonly s: OpenIdClientSettings) {}

  /** Discovery once per container; a failed one is forgotten so the next call tries again. */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.config) {
      const attempt = (async () => {
        const server = new URL(this.s.issuer);
        try {
          return await oidc.discovery(
            server,
            this.s.clientId,
            undefined,
            oidc.ClientSecretBasic(await this.s.clientSecret()),
            isLoopback(server) ? { execute: [oidc.allowInsecureRequests] } : undefined,
          );
        } catch (e) {
          throw new IdentityProviderError({ kind: 'UNREACHABLE', detail: (e as Error).message });
        }
      })();
      this.config = attempt;
      attempt.catch(() => {
        if (this.config === attempt) this.config = undefined;
      });
    }
    return this.config;
  }

  async issuer(): Promise<string> {
    return (await this.configuration()).serverMetadata().issuer;
  }

  async authorizationUrl(req: AuthorizationRequest): Promise<string> {
    const config = await this.configuration();
    const params: Record<string, string> = {
      redirect_uri: this.s.redirectUri,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(req.codeVerifier),
      code_challenge_method: 'S256',
      state: req.state,
      nonce: req.nonce,
    };
    // a signature's confirmation: the provider must ask for the password again, and say when it did
    if (req.reauth) Object.assign(params, { prompt: 'login', max_age: String(REAUTH_MAX_AGE_SECONDS) });
    return oidc.buildAuthorizationUrl(config, params).href;
  }

  async verifyCallback(c: CallbackChecks): Promise<VerifiedIdentity> {
    const config = await this.configuration();
    const current = new URL(this.s.redirectUri);
    current.search = c.search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: c.codeVerifier,
        expectedState: c.expectedState,
        expectedNonce: c.expectedNonce,
        idTokenExpected: true,
        ...(c.maxAgeSeconds !== undefined ? { maxAge: c.maxAgeSeconds } : {}),
      });
    } catch (e) {
      throw new IdentityProviderError(refusalOf(e));
    }
    const claims = tokens.claims();
    if (!claims) throw new IdentityProviderError({ kind: 'INVALID_ANSWER', detail: 'no ID token' });
    return {
      issuer: claims.iss,
      subject: claims.sub,
      ...(typeof claims.auth_time === 'number' ? { authTime: claims.auth_time } : {}),
      claims: {
        sub: claims.sub,
        email: claims.email,
        email_verified: claims.email_verified,
        name: claims.name,
      },
    };
  }
}

/** What went wrong, in the terms the service answers with (the detail is logged, never shown). */
function refusalOf(e: unknown) {
  if (e instanceof oidc.AuthorizationResponseError)
    return { kind: 'PROVIDER_ERROR' as const, error: e.error };
  // a used, foreign or PKCE-mismatched code: the provider's token endpoint says invalid_grant
  if (e instanceof oidc.ResponseBodyError && e.error === 'invalid_grant')
    return { kind: 'CODE_REFUSED' as const };
  if (e instanceof TypeError && /fetch failed/i.test(e.message))
    return { kind: 'UNREACHABLE' as const, detail: e.message };
  return { kind: 'INVALID_ANSWER' as const, detail: (e as Error).message ?? String(e) };
}
