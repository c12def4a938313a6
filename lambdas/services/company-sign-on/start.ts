import { COMPANY_ERR, SIGN_ON_SECONDS } from '../../../shared/domain/company-sign-on';
import { ConflictError } from '../../../shared/domain/errors';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { takeQuotaOrRefuse } from '../users/common';
import { after, type CompanySignOnDeps, hashOf, newSecret } from './deps';

/**
 * Starts a sign-in at the company's provider (decision 315): state, nonce and PKCE verifier made here and
 * kept server side (only the state's hash is a key); the browser gets the provider's address and a
 * binding secret it must send back with the answer, so an answer reaching another browser window (a
 * login-CSRF link, a stolen redirect) signs nobody in. `user`: a signed-in user's fresh sign-in for a
 * signature (prompt=login, max_age).
 */
export async function startSignOn(
  d: CompanySignOnDeps,
  sourceIp: string,
  user?: UserRecord,
): Promise<{ authorizationUrl: string; binding: string; expiresAt: string }> {
  const { perSource, windowSeconds } = d.company.startLimit;
  await takeQuotaOrRefuse(d, `signon-start#${sourceIp}`, perSource, windowSeconds, API_ERR.tooManyAttempts);
  // the account's state, not the caller's right: 409 (the route's gate already let the caller in)
  if (user && !user.companyIdentity) throw new ConflictError(COMPANY_ERR.reauthNotLinked(d.company.name));
  const state = newSecret();
  const binding = newSecret();
  // 32 random bytes, base64url: a valid PKCE verifier (43 characters of the unreserved set) and nonce
  const nonce = newSecret();
  const codeVerifier = newSecret();
  const now = d.clock.now();
  const expiresAt = after(now, SIGN_ON_SECONDS);
  // the provider's address first: when it is unreachable nothing is stored
  const authorizationUrl = await d.idp.authorizationUrl({
    state,
    nonce,
    codeVerifier,
    reauth: user !== undefined,
  });
  await d.identities.putTransaction({
    stateHash: hashOf(state),
    purpose: user ? 'REAUTH' : 'SIGN_IN',
    codeVerifier,
    nonce,
    bindingHash: hashOf(binding),
    ...(user ? { userId: user.id } : {}),
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { authorizationUrl, binding, expiresAt };
}
