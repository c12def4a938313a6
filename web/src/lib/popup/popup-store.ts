import { MSG } from '@shared/messages';
import { useSyncExternalStore } from 'react';
import { paths } from '@/config/paths';
import { loginPathFrom } from '@/lib/session/guards';

/** The kinds of the shared popup (spec §8). */
export type PopupKind = 'session' | 'error' | 'warning' | 'success';

export interface Popup {
  kind: PopupKind;
  message: string;
  buttonLabel: string;
  /** where the button goes, after onClose ran */
  to?: string;
  onClose?: () => void;
}

let current: Popup | null = null;
const listeners = new Set<() => void>();

function set(next: Popup | null) {
  current = next;
  for (const listener of listeners) listener();
}

export const popups = {
  get: (): Popup | null => current,
  show(popup: Popup): void {
    // a session timeout outranks anything that fails after it (every later call fails the same way)
    if (current?.kind === 'session' && popup.kind !== 'session') return;
    set(popup);
  },
  close(): void {
    set(null);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function usePopup(): Popup | null {
  return useSyncExternalStore(popups.subscribe, popups.get, popups.get);
}

/**
 * Spec §8 session timeout: 'Session timeout. Please login.' with 'To login page'; the login page keeps
 * the page the user was on (a package opened from a mail) and opens it again after sign-in.
 */
export function showSessionTimeout(why?: string): void {
  popups.show({
    kind: 'session',
    // the spec's words, and beside them why the session ended when the server said
    message: why ? `${MSG.sessionTimeout} ${why}` : MSG.sessionTimeout,
    buttonLabel: MSG.toLoginPage,
    to: loginPathFrom(window.location.pathname, window.location.search),
  });
}

/** Spec §8 any other error: the prefix, then the server's errorMessage; 'To home page'. */
export function showServerError(errorMessage: string): void {
  popups.show({
    kind: 'error',
    message: `${MSG.internalErrorPrefix}${errorMessage}`,
    buttonLabel: MSG.toHomePage,
    to: paths.home,
  });
}

/** Spec §8 warning: its own message and a 'Close' button that runs the close callback. */
export function showWarning(message: string, onClose?: () => void): void {
  popups.show({ kind: 'warning', message, buttonLabel: MSG.close, onClose });
}

/**
 * A caller's own answer to a refusal it handles (a 4xx such as 403 not yours, 404 gone, 409 moved on):
 * the server's words in a warning. A 5xx or a network failure (status 0) was already shown by the client
 * as the spec's error popup ('Internal server error. …', 'To home page'), and a 401 as the session
 * timeout; those stay as they are.
 */
export function showRefusal(status: number, message: string, options: { to?: string } = {}): void {
  if (status < 400 || status >= 500 || status === 401) return;
  popups.show({ kind: 'warning', message, buttonLabel: MSG.close, to: options.to });
}

/** A success popup of spec §8 (e.g. 'Uploaded successfully.'). */
export function showSuccess(message: string, options: { buttonLabel?: string; to?: string } = {}): void {
  popups.show({ kind: 'success', message, buttonLabel: options.buttonLabel ?? MSG.close, to: options.to });
}
