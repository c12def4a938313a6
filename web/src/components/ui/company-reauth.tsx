import { Button } from '@aws-amplify/ui-react';
import { useEffect, useRef, useState } from 'react';
import { callApi } from '@/lib/api-client/api-client';
import { REAUTH_MESSAGE, type ReauthMessage, rememberSignOn } from '@/lib/company-sign-on/pending-sign-on';

/**
 * "Sign in again at <company>": the re-authentication of an electronic signature for a person without a
 * portal password (decision 318). A popup goes to the company's provider with prompt=login and max_age;
 * the portal's callback page in it hands back a one-time ticket (five minutes, this user only), which the
 * signature submits as its proof instead of a password. The signature dialog places this button.
 */
export function CompanyReauthButton({
  companyName,
  onTicket,
  onError,
  onStart,
  isDisabled = false,
  variation,
  label = `Sign in again at ${companyName}`,
}: {
  companyName: string;
  onTicket: (reauthTicket: string) => void;
  onError: (message: string) => void;
  /** the window is about to open: an earlier refusal no longer applies */
  onStart?: () => void;
  isDisabled?: boolean;
  variation?: 'primary';
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const handlers = useRef({ onTicket, onError });
  handlers.current = { onTicket, onError };
  const watch = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearInterval(watch.current), []);

  useEffect(() => {
    const listen = (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      const m = e.data as ReauthMessage | undefined;
      if (m?.type !== REAUTH_MESSAGE) return;
      window.clearInterval(watch.current);
      setBusy(false);
      if (m.reauthTicket) handlers.current.onTicket(m.reauthTicket);
      else handlers.current.onError(m.error ?? `${companyName} did not confirm`);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [companyName]);

  const start = async () => {
    setBusy(true);
    onStart?.();
    // opened before the call: a popup opened after an await is blocked as unrequested
    const popup = window.open('about:blank', 'frp-company-reauth', 'width=520,height=680');
    const r = await callApi('startCompanyReauth', {}, { handle: 'all' });
    if (!r.ok || !popup) {
      popup?.close();
      setBusy(false);
      onError(
        r.ok ? 'Allow pop-ups for the portal to confirm with your company sign-in.' : r.error.errorMessage,
      );
      return;
    }
    rememberSignOn(r.data.authorizationUrl, { binding: r.data.binding });
    popup.location.href = r.data.authorizationUrl;
    // a window closed before the provider sent it back sends no message: the button must not wait for ever
    // (the callback page posts before it closes itself, so its message is handled first)
    window.clearInterval(watch.current);
    let seenClosed = 0;
    watch.current = window.setInterval(() => {
      // seen closed twice: a message posted just before the window closed has been handled by then
      if (!popup.closed || ++seenClosed < 2) return;
      window.clearInterval(watch.current);
      setBusy(false);
      handlers.current.onError(
        `The ${companyName} sign-in window was closed before it confirmed; nothing was signed. Try again.`,
      );
    }, 500);
  };

  return (
    <Button
      onClick={() => void start()}
      isLoading={busy}
      isDisabled={isDisabled}
      variation={variation}
      loadingText={`Waiting for ${companyName}…`}
    >
      {label}
    </Button>
  );
}
