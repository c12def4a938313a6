import type { LoginRequest, RegisterRequest } from '@shared/api/contracts/user';
import { callApi } from '@/lib/api-client/api-client';

/** POST /user/login (spec §7). 400/401/429 are shown on the form; 5xx goes to the popup. */
export function login(body: LoginRequest) {
  // 403 { emailNotConfirmed: true }: the address waits for its confirmation link
  return callApi('login', { body }, { handle: [400, 401, 403, 429] });
}

/**
 * POST /user/confirm-email with the password chosen at registration: 400 invalid, 403 wrong
 * password, 409 used or replaced, 410 expired (`reason` says which), 429 throttled like sign-in.
 */
export function confirmEmail(token: string, password: string) {
  return callApi('confirmEmail', { body: { token, password } }, { handle: [400, 403, 409, 410, 429] });
}

/** POST /user/confirm-email/cancel, "I did not register": the token alone; 400, 409, 410 as above. */
export function cancelRegistration(token: string) {
  return callApi('cancelRegistration', { body: { token } }, { handle: [400, 409, 410] });
}

/** POST /user/confirm-email/resend: the same answer for any address; 429 after a few. */
export function resendConfirmation(email: string) {
  return callApi('resendConfirmation', { body: { email } }, { handle: [400, 429] });
}

/** POST /user/register: 201, 409 when the email is taken, 400 with the server's reason. */
export function register(body: RegisterRequest) {
  return callApi('register', { body }, { handle: [400, 409] });
}

/** POST /user/reset-password: 404 { authError: 'User not found' } is shown as 'Login is incorrect'. */
export function resetPassword(email: string) {
  return callApi('resetPassword', { body: { email } }, { handle: [400, 404, 429] });
}

/** POST /company-sign-on/start: the provider's address and this window's binding; 429 per source. */
export function startCompanySignOn() {
  return callApi('startCompanySignOn', {}, { handle: [404, 429, 503] });
}

/** POST /company-sign-on/callback: a session, a link offer or a signature's ticket; 4xx with the reason. */
export function companySignOnCallback(search: string, binding: string) {
  return callApi('companySignOnCallback', { body: { search, binding } }, { handle: 'all' });
}

/** POST /company-sign-on/link: the owner links with the portal password (403 wrong, 429 throttled). */
export function linkCompanyIdentity(linkTicket: string, password: string) {
  return callApi('linkCompanyIdentity', { body: { linkTicket, password } }, { handle: [400, 403, 409, 429] });
}

/** POST /company-sign-on/link-request: two admins decide the link instead. */
export function requestCompanyLink(linkTicket: string) {
  return callApi('requestCompanyLink', { body: { linkTicket } }, { handle: [400, 409] });
}
