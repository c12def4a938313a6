import type { AccountRequest, ChangePasswordRequest } from '@shared/api/contracts/user';
import { callApi } from '@/lib/api-client/api-client';

/** POST /user/account: the answer's user replaces the stored one (spec §7); 409 email taken. */
export function updateAccount(body: AccountRequest) {
  return callApi('updateAccount', { body }, { handle: [400, 409] });
}

/**
 * POST /user/password: the server revokes old tokens and returns a new one; 403 old password wrong, 429
 * too many wrong old passwords (they count like failed sign-ins), both shown on the form.
 */
export function changePassword(body: ChangePasswordRequest) {
  return callApi('changePassword', { body }, { handle: [400, 403, 429] });
}
