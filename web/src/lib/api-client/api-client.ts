import type { RequestInputOf, ResponseOf } from '@shared/api/contract';
import { ROUTE_PATHS } from '@shared/api/route-paths';
import type { RouteId } from '@shared/api/routes';
import { API_ERR } from '@shared/messages';
import { env } from '@/config/env';
import { loader } from '@/lib/loader/loader-store';
import { showServerError, showSessionTimeout } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { getToken, removeToken } from '@/lib/session/token-cookie';
import { routePath } from './route-path';

/** An error body of the API: `{ errorMessage, ... }` (plus authError, retryAfterSeconds...). */
export interface ApiError {
  errorMessage: string;
  authError?: string;
  retryAfterSeconds?: number;
  [key: string]: unknown;
}

/** Spec §7: the client returns failures as the result instead of throwing. */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: ApiError };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** sent as JSON */
  body?: unknown;
  /** sent as multipart/form-data (use sendWithProgress when progress matters) */
  formData?: FormData;
  query?: Record<string, string>;
  /**
   * Failure statuses this caller shows itself; 'all' for every failure. Any other failure goes to the
   * shared popups of spec §8 (session timeout, or the internal-error popup).
   */
  handle?: readonly number[] | 'all';
  /** the loader overlay of spec §2.4; on by default */
  loader?: boolean;
  signal?: AbortSignal;
}

/**
 * Options of a background refresh (decision 178): no loader overlay (that is for requests a person
 * started) and no popup; the caller decides what a failure means (useRefreshWhile).
 */
export const quietly = (quiet = true): Pick<RequestOptions, 'loader' | 'handle'> =>
  quiet ? { loader: false, handle: 'all' } : {};

const SESSION_ERRORS = ['JWT signature does not match locally computed signature', 'Token invalid'];

/** Spec §8: 401, or a 500 whose message names a bad token, means the session is over. */
export function isSessionExpired(status: number, errorMessage: string): boolean {
  return status === 401 || (status === 500 && SESSION_ERRORS.some((s) => errorMessage.includes(s)));
}

/**
 * Clears the session (cookie and storage) and shows 'Session timeout. Please login.'; when the server said
 * the account was deleted, that reason beside it.
 */
export function expireSession(errorMessage?: string): void {
  removeToken();
  session.clear();
  showSessionTimeout(errorMessage === API_ERR.accountDeleted ? errorMessage : undefined);
}

/** Absolute URL of an API path (absolute so it also works where fetch has no base, as in tests). */
export function apiUrl(path: string, query?: Record<string, string>): string {
  const url = new URL(`${env.apiBase}${path}`, window.location.href);
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Reads a body as JSON when it is JSON; an error without an errorMessage gets a readable one. */
export function toResult<T>(status: number, text: string): ApiResult<T> {
  let parsed: unknown;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (status >= 200 && status < 300) return { ok: true, status, data: (parsed ?? {}) as T };
  const body = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<ApiError>;
  // API Gateway's own answers (unknown route, too large, function failed) carry `message` instead
  const gatewayMessage = (body as { message?: unknown }).message;
  const errorMessage =
    typeof body.errorMessage === 'string' && body.errorMessage !== ''
      ? body.errorMessage
      : typeof gatewayMessage === 'string' && gatewayMessage !== ''
        ? gatewayMessage
        : text && parsed === undefined
          ? text.slice(0, 300)
          : `HTTP ${status}`;
  return { ok: false, status, error: { ...body, errorMessage } };
}

/** Routes a failure nobody asked for to the shared popups (spec §8). */
export function reportFailure(result: ApiResult<unknown>, handle: RequestOptions['handle']): void {
  if (result.ok) return;
  if (handle === 'all' || handle?.includes(result.status)) return;
  if (isSessionExpired(result.status, result.error.errorMessage)) expireSession(result.error.errorMessage);
  else showServerError(result.error.errorMessage);
}

export async function request<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResult<T>> {
  const done = options.loader === false ? () => {} : loader.start();
  let result: ApiResult<T>;
  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
    let body: BodyInit | undefined;
    if (options.formData) body = options.formData;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
    result = toResult<T>(response.status, await response.text());
  } catch (e) {
    if ((e as Error).name === 'AbortError') {
      done();
      return { ok: false, status: 0, error: { errorMessage: 'The request was cancelled' } };
    }
    result = {
      ok: false,
      status: 0,
      error: { errorMessage: `The server could not be reached (${(e as Error).message})` },
    };
  }
  done();
  reportFailure(result, options.handle);
  return result;
}

export { routePath };

/** What a call of a route sends: its contract's params, query and body (shared/api/contract.ts). */
export type CallInput<Id extends RouteId> = RequestInputOf<Id>;

/**
 * Calls a route by its id: method and path from its row, the answer typed by its contract's response
 * schema (the types only: no zod reaches the browser for this). Failures come back as the result (spec §7).
 */
export function callApi<Id extends RouteId>(
  id: Id,
  input: CallInput<Id>,
  options: Omit<RequestOptions, 'body' | 'query'> = {},
): Promise<ApiResult<ResponseOf<Id>>> {
  const { params, query, body } = input as {
    params?: Record<string, string>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  };
  const sent = Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  return request<ResponseOf<Id>>(ROUTE_PATHS[id][0], routePath(id, params), {
    ...options,
    body,
    ...(sent.length ? { query: Object.fromEntries(sent) } : {}),
  });
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
};

/** A JSON-text field that is not JSON, or does not hold what its contract says (decision 238). */
/**
 * What a JSON-text field is read with: a zod schema, or (where zod must stay out of the first chunk,
 * as in the session code) a hand-written check of the same shape.
 */
export interface AnswerSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}
type Parsed<S> = S extends AnswerSchema<infer T> ? T : never;

export class UnreadableAnswer extends Error {
  override name = 'UnreadableAnswer';
}

/**
 * Spec §3: records and lists travel as JSON text in one field. Read with the record's zod schema
 * (shared/api/contracts/records.ts), never cast: an absent field is `fallback`, an already
 * parsed value is checked the same way, and a text that is not JSON or does not match throws
 * UnreadableAnswer (readAnswer turns it into a failed result).
 */
export function parseJsonText<S extends AnswerSchema<unknown>, F = Parsed<S>>(
  value: unknown,
  schema: S,
  fallback: F,
): Parsed<S> | F {
  if (value === undefined || value === null) return fallback;
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      throw new UnreadableAnswer('The answer the server sent cannot be read (not JSON)');
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UnreadableAnswer('The answer the server sent cannot be read');
  return parsed.data as Parsed<S>;
}

/**
 * A successful result's data read by `read` (which parses its JSON text); an unreadable answer becomes a
 * failed result (502) and goes to the shared popups unless the caller `handle`s it, like any failure.
 */
export function readAnswer<T, U>(
  result: ApiResult<T>,
  read: (data: T) => U,
  handle?: RequestOptions['handle'],
): ApiResult<U> {
  if (!result.ok) return result;
  try {
    return { ok: true, status: result.status, data: read(result.data) };
  } catch (e) {
    if (!(e instanceof UnreadableAnswer)) throw e;
    const failed: ApiResult<U> = { ok: false, status: 502, error: { errorMessage: e.message } };
    reportFailure(failed, handle);
    return failed;
  }
}
