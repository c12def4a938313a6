import type { AccountRequest, ChangePasswordRequest } from '@shared/api/contracts/user';
import { api } from '@/lib/api-client/api-client';

/** POST /user/account: the answer's user replaces the stored one (spec §7); 409 email taken. */
export function updateAccount(body: AccountRequest) {
  return api.post<{ user: string }>('/user/account', body, { handle: [400, 409] });
}

/**
 * POST /user/password: the server revokes old tokens and returns a new one; 403 old password wrong, 429
 * too many wrong old passwords (they count like failed sign-ins), both shown on the form.
 */
export function changePassword(body: ChangePasswordRequest) {
  return api.post<{ status: string; message: string; token: string }>('/user/password', body, {
    handle: [400, 403, 429],
  });
}
