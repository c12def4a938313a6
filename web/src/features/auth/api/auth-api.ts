import type { LoginRequest, RegisterRequest } from '@shared/api/contracts/user';
import { api } from '@/lib/api-client/api-client';

/** POST /user/login (spec §7). 400/401/429 are shown on the form; 5xx goes to the popup. */
export function login(body: LoginRequest) {
  return api.post<{ token: string; user: string }>('/user/login', body, { handle: [400, 401, 429] });
}

/** POST /user/register: 201, 409 when the email is taken, 400 with the server's reason. */
export function register(body: RegisterRequest) {
  return api.post<{ status: string; message: string }>('/user/register', body, { handle: [400, 409] });
}

/** POST /user/reset-password: 404 { authError: 'User not found' } is shown as 'Login is incorrect'. */
export function resetPassword(email: string) {
  return api.post<{ status: string; message: string }>(
    '/user/reset-password',
    { email },
    { handle: [400, 404, 429] },
  );
}
