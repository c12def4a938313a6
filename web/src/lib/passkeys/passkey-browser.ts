import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';

/**
 * The browser's side of a passkey ceremony (decision 322), by @simplewebauthn/browser: it turns the
 * server's options into navigator.credentials calls and their answers into JSON. A cancelled or refused
 * prompt becomes a sentence for the person, never an exception.
 */

export type BrowserAnswer<T> = { ok: true; response: T } | { ok: false; message: string; cancelled?: true };

/** The answer of a prompt the person cancelled in the portal: nothing was sent. */
export const CANCELLED = {
  ok: false,
  message: 'The passkey prompt was cancelled; nothing was sent.',
  cancelled: true,
} as const;

/**
 * Ties the portal's Cancel to the browser's prompt: @simplewebauthn/browser keeps one AbortController per
 * ceremony (WebAuthnAbortService), whose abort closes the prompt at once instead of at its timeout.
 */
function abortWith(signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  const abort = () => WebAuthnAbortService.cancelCeremony();
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}

function reason(e: unknown): string {
  const name = (e as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey prompt was closed or timed out; nothing was sent. Try again.';
  if (name === 'InvalidStateError') return 'This authenticator already holds a passkey for your account.';
  if (name === 'NotSupportedError' || name === 'SecurityError')
    return 'This browser cannot use passkeys on this address.';
  return `The passkey prompt failed: ${(e as Error)?.message ?? 'unknown reason'}`;
}

export async function promptNewPasskey(
  options: unknown,
): Promise<BrowserAnswer<Awaited<ReturnType<typeof startRegistration>>>> {
  try {
    const optionsJSON = options as PublicKeyCredentialCreationOptionsJSON;
    return { ok: true, response: await startRegistration({ optionsJSON }) };
  } catch (e) {
    return { ok: false, message: reason(e) };
  }
}

/** The browser's passkey prompt for the server's challenge; `signal` aborted: the prompt closes, CANCELLED. */
export async function promptPasskey(
  options: unknown,
  signal?: AbortSignal,
): Promise<BrowserAnswer<Awaited<ReturnType<typeof startAuthentication>>>> {
  if (signal?.aborted) return CANCELLED;
  const release = abortWith(signal);
  try {
    const optionsJSON = options as PublicKeyCredentialRequestOptionsJSON;
    return { ok: true, response: await startAuthentication({ optionsJSON }) };
  } catch (e) {
    return signal?.aborted ? CANCELLED : { ok: false, message: reason(e) };
  } finally {
    release();
  }
}
