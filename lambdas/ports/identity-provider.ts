import type { CompanyClaims } from '../../shared/domain/company-sign-on';

/**
 * The company's OpenID provider as the relying party sees it (adapter: adapters/oidc/openid-client-provider.ts,
 * over the certified openid-client library). The adapter does every protocol check; the service decides
 * who the verified person is in the portal.
 */
export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** a fresh sign-in for a signature: prompt=login and max_age */
  reauth: boolean;
}

export interface CallbackChecks {
  /** the whole query string the provider sent the browser back with (`?code=…&state=…&iss=…`) */
  search: string;
  expectedState: string;
  expectedNonce: string;
  codeVerifier: string;
  /** auth_time must be present and no older than this (seconds) */
  maxAgeSeconds?: number;
}

/** The verified ID token: its issuer, subject, when the person signed in there, and the claims. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  /** seconds since the epoch; absent when the provider did not say */
  authTime?: number;
  claims: CompanyClaims;
}

/** Why the provider's answer was refused: each is a 4xx for the person, with nothing changed. */
export type IdentityProviderRefusal =
  | { kind: 'PROVIDER_ERROR'; error: string }
  | { kind: 'CODE_REFUSED' }
  | { kind: 'INVALID_ANSWER'; detail: string }
  | { kind: 'UNREACHABLE'; detail: string };

export class IdentityProviderError extends Error {
  override name = 'IdentityProviderError';
  constructor(readonly refusal: IdentityProviderRefusal) {
    super(
      `${refusal.kind}${'detail' in refusal ? `: ${refusal.detail}` : 'error' in refusal ? `: ${refusal.error}` : ''}`,
    );
  }
}

export interface IdentityProvider {
  /** the provider's issuer identifier (what a link records) */
  issuer(): Promise<string>;
  authorizationUrl(req: AuthorizationRequest): Promise<string>;
  /** exchanges the code and verifies the ID token, or throws IdentityProviderError */
  verifyCallback(checks: CallbackChecks): Promise<VerifiedIdentity>;
}
