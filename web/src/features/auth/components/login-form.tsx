import { Alert, Button, Flex, Heading } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EmailAddressField, LinkAndSubmit, SecretField } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { login, resendConfirmation } from '../api/auth-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { CompanySignOnButton } from './company-sign-on-button';

type LoginError = {
  message: string;
  email: boolean;
  password: boolean;
  /** the address waits for its confirmation link: offer to send it again */
  unconfirmed?: boolean;
  /** the passkey step did not finish: the password is asked again with a new ticket (decision 322) */
  passkey?: boolean;
} | null;

/** Spec §2.1 /login, §5 login rules, §8 login errors. */
export function LoginForm() {
  const finish = useFinishSignIn();
  const [searchParams] = useSearchParams();
  const [passkeyStep, setPasskeyStep] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<LoginError>(null);
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState<{ ok: boolean; message: string } | null>(null);

  const resend = async () => {
    const r = await resendConfirmation(email.trim());
    setResent(r.ok ? { ok: true, message: r.data.message } : { ok: false, message: r.error.errorMessage });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (email.trim() === '' || password === '') {
      setError({ message: MSG.loginEmpty, email: email.trim() === '', password: password === '' });
      return;
    }
    setBusy(true);
    setPasskeyStep(false);
    const result = await login({ login: email.trim(), password });
    if (result.ok) {
      // an account with a passkey: the browser asks for it now (decision 322)
      if ('secondFactor' in result.data) setPasskeyStep(true);
      const { error: refused } = await finish(result.data);
      setBusy(false);
      if (refused) setError({ message: refused, email: false, password: false, passkey: true });
      return;
    }
    setBusy(false);
    if (result.status === 401) setError({ message: MSG.loginIncorrect, email: true, password: true });
    else if (result.status === 400) setError({ message: MSG.loginEmpty, email: true, password: true });
    else if (result.status === 403 && result.error.emailNotConfirmed)
      setError({ message: result.error.errorMessage, email: false, password: false, unconfirmed: true });
    else setError({ message: result.error.errorMessage, email: false, password: false });
  };

  // spec §5: the error clears when the user edits a field
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    if (error) setError(null);
    if (resent) setResent(null);
  };

  return (
    <>
      <div className="frp-card frp-form-card">
        <Heading level={1} className="frp-page-title">
          Sign in
        </Heading>
        <form onSubmit={submit} noValidate aria-describedby={error ? 'login-error' : undefined}>
          <Flex direction="column" gap="1rem">
            <EmailAddressField value={email} onChange={edit(setEmail)} hasError={error?.email ?? false} />
            <SecretField
              label="Password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={edit(setPassword)}
              hasError={error?.password ?? false}
            />
            {error ? (
              <Alert variation={error.unconfirmed ? 'warning' : 'error'} id="login-error" role="alert">
                {error.message}
                {error.unconfirmed ? (
                  <Flex marginTop="0.5rem">
                    <Button size="small" onClick={resend}>
                      Send the link again
                    </Button>
                  </Flex>
                ) : null}
              </Alert>
            ) : null}
            {passkeyStep && busy ? (
              <Alert variation="info" role="status" heading="Confirm with your passkey">
                Your password is right. Your browser now asks for your passkey: touch your security key, or
                use your fingerprint, face or device PIN.
              </Alert>
            ) : null}
            {resent ? (
              <Alert variation={resent.ok ? 'info' : 'error'} role="status">
                {resent.message}
              </Alert>
            ) : null}
            <LinkAndSubmit
              to={paths.resetPassword}
              link={MSG.forgotPassword}
              action={{
                label: MSG.submit,
                busyLabel: passkeyStep ? 'Waiting for your passkey…' : 'Signing in…',
              }}
              busy={busy}
            />
          </Flex>
        </form>
      </div>
      {/* company sign-on goes around the spec's form, which stays as it is (decision 315) */}
      <CompanySignOnButton next={searchParams.get('next')} />
    </>
  );
}
