import { Alert, Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { assertNever } from '@shared/domain/assert-never';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { SecretField } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { REAUTH_MESSAGE, type ReauthMessage, takeSignOn } from '@/lib/company-sign-on/pending-sign-on';
import { companySignOnCallback, linkCompanyIdentity, requestCompanyLink } from '../api/auth-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';

type Step =
  | { kind: 'working' }
  | { kind: 'failed'; message: string }
  | { kind: 'link'; linkTicket: string; email: string; next?: string }
  | { kind: 'requested'; message: string }
  | { kind: 'confirmed' };

/**
 * Where the company's provider sends the browser back (/login/company, decision 315): the answer goes to
 * the backend with this window's binding; a session ends as a password sign-in does, a known address is
 * offered a link (its portal password, or two admins), and a signature's confirmation popup hands its
 * ticket to the window that opened it.
 */
export function CompanyCallbackPage() {
  const finish = useFinishSignIn();
  const [step, setStep] = useState<Step>({ kind: 'working' });
  const started = useRef(false);

  useEffect(() => {
    // once: the answer is single use (a second call would be refused as a replay)
    if (started.current) return;
    started.current = true;
    const search = window.location.search;
    const pending = takeSignOn(search);
    const opener = window.opener as Window | null;
    const tell = (m: Omit<ReauthMessage, 'type'>) =>
      opener?.postMessage({ type: REAUTH_MESSAGE, ...m }, window.location.origin);
    if (!pending) {
      const message =
        'This sign-in was not started in this browser window, or was already used. Start again from the sign-in page.';
      tell({ error: message });
      setStep({ kind: 'failed', message });
      return;
    }
    void companySignOnCallback(search, pending.binding).then((r) => {
      if (!r.ok) {
        tell({ error: r.error.errorMessage });
        setStep({ kind: 'failed', message: r.error.errorMessage });
        return;
      }
      const a = r.data;
      switch (a.outcome) {
        case 'SIGNED_IN':
        case 'SECOND_FACTOR':
          // an account with a passkey: the browser asks for it now, as after a password (decision 322)
          void finish(a, pending.next ?? null).then(({ error }) => {
            if (error) setStep({ kind: 'failed', message: error });
          });
          return;
        case 'LINK_REQUIRED':
          setStep({
            kind: 'link',
            linkTicket: a.linkTicket,
            email: a.email,
            ...(pending.next ? { next: pending.next } : {}),
          });
          return;
        case 'REAUTHENTICATED':
          tell({ reauthTicket: a.reauthTicket });
          setStep({ kind: 'confirmed' });
          if (opener) window.close();
          return;
        default:
          return assertNever(a, 'company sign-on outcome');
      }
    });
  }, [finish]);

  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        Company sign-on
      </Heading>
      {step.kind === 'working' ? <Text role="status">Signing you in…</Text> : null}
      {step.kind === 'failed' ? <Said variation="error" message={step.message} /> : null}
      {step.kind === 'confirmed' ? (
        <Alert variation="success" role="status">
          Confirmed. You can close this window and go back to the signature.
        </Alert>
      ) : null}
      {step.kind === 'requested' ? <Said variation="info" message={step.message} /> : null}
      {step.kind === 'link' ? (
        <LinkAccount step={step} onRequested={(message) => setStep({ kind: 'requested', message })} />
      ) : null}
    </div>
  );
}

/** What the sign-in ended with, and the way back to the sign-in page. */
function Said({ variation, message }: { variation: 'error' | 'info'; message: string }) {
  return (
    <Flex direction="column" gap="1rem">
      <Alert variation={variation} role={variation === 'error' ? 'alert' : 'status'}>
        {message}
      </Alert>
      <Link to={paths.login}>Back to the sign-in page</Link>
    </Flex>
  );
}

/** An existing account has this address: its owner links it with the portal password, or asks two admins. */
function LinkAccount({
  step,
  onRequested,
}: {
  step: Extract<Step, { kind: 'link' }>;
  onRequested: (message: string) => void;
}) {
  const finish = useFinishSignIn();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || password === '') return;
    setBusy(true);
    const r = await linkCompanyIdentity(step.linkTicket, password);
    if (r.ok) {
      const { error: refused } = await finish(r.data, step.next ?? null);
      setBusy(false);
      if (refused) setError(refused);
      return;
    }
    setBusy(false);
    setError(r.error.errorMessage);
  };
  const ask = async () => {
    setBusy(true);
    const r = await requestCompanyLink(step.linkTicket);
    setBusy(false);
    if (r.ok) onRequested(r.data.message);
    else setError(r.error.errorMessage);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Link your company identity">
      <Flex direction="column" gap="1rem">
        <Text>
          The portal already has an account for <strong>{step.email}</strong>. Your company identity is linked
          to it only by that account's owner: enter its portal password once. From then on you sign in with
          your company account.
        </Text>
        <SecretField
          label="Portal password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(v) => {
            setPassword(v);
            setError(null);
          }}
          hasError={error !== null}
        />
        {error ? (
          <Alert variation="error" role="alert">
            {error}
          </Alert>
        ) : null}
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="0.75rem">
          <Button variation="link" onClick={() => void ask()} isDisabled={busy}>
            I don't know the password: ask the administrators
          </Button>
          <Button type="submit" variation="primary" isDisabled={password === '' || busy} isLoading={busy}>
            Link and sign in
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
