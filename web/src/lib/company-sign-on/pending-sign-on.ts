/**
 * The browser's half of a company sign-in (decision 315): the binding secret the server handed this
 * window, kept in localStorage under the sign-in's state until the provider sends the browser back (a
 * popup for a signature's confirmation shares it with its opener). Used once, then removed.
 */
const KEY = 'frp.companySignOn.';

export interface PendingSignOn {
  binding: string;
  /** where to go after the sign-in (a page a mail link asked for) */
  next?: string;
}

const stateOf = (authorizationUrl: string) => new URL(authorizationUrl).searchParams.get('state') ?? '';

/** Remembers the binding of a sign-in about to be sent to the provider. */
export function rememberSignOn(authorizationUrl: string, pending: PendingSignOn): void {
  localStorage.setItem(`${KEY}${stateOf(authorizationUrl)}`, JSON.stringify(pending));
}

/** The binding of the sign-in the provider's answer (`search`) belongs to, removed; null when none. */
export function takeSignOn(search: string): PendingSignOn | null {
  const state = new URLSearchParams(search).get('state');
  if (!state) return null;
  const key = `${KEY}${state}`;
  const raw = localStorage.getItem(key);
  localStorage.removeItem(key);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as PendingSignOn;
    return typeof v.binding === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The message a signature's confirmation popup sends its opener (same origin only). */
export const REAUTH_MESSAGE = 'frp-company-reauth';
export interface ReauthMessage {
  type: typeof REAUTH_MESSAGE;
  reauthTicket?: string;
  error?: string;
}
