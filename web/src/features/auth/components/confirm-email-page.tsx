import { Alert, Button, Divider, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { API_ERR, MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { EmailAddressField, FormAlert, SecretField, SubmitRow } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { isEmail } from '@/utils/validation';
import { cancelRegistration, confirmEmail, resendConfirmation } from '../api/auth-api';
import { useEmailForm } from '../hooks/use-email-form';

type State =
  | { kind: 'asking' }
  | { kind: 'confirmed'; message: string }
  | { kind: 'cancelled'; message: string }
  | { kind: 'failed'; message: string; reason: string };

/** The link's problems that no password can fix: the page then offers a new link instead of the form. */
const LINK_REASONS = new Set(['INVALID', 'USED', 'EXPIRED', 'REPLACED']);

/**
 * /user/confirm-email?token=…: the link of the confirmation mail. Confirming takes the token
 * and the password chosen at registration, so only who holds the mailbox and chose the password activates
 * the account; "I did not register" cancels the registration with the token alone and frees the address. A
 * link that expired, was used or is broken offers to mail a new one.
 */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [state, setState] = useState<State>(
    token
      ? { kind: 'asking' }
      : {
          kind: 'failed',
          message: 'This page needs the whole link from the confirmation mail.',
          reason: 'INVALID',
        },
  );
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'confirm' | 'cancel' | null>(null);

  const failed = (e: { errorMessage: string; reason?: unknown }) => {
    const reason = typeof e.reason === 'string' ? e.reason : '';
    // a wrong password or a throttle: the form stays, with the server's words under it
    if (LINK_REASONS.has(reason)) setState({ kind: 'failed', message: e.errorMessage, reason });
    else setError(e.errorMessage);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (password === '') return setError(API_ERR.confirmPasswordNeeded);
    setError(null);
    setBusy('confirm');
    const r = await confirmEmail(token, password);
    setBusy(null);
    if (r.ok) setState({ kind: 'confirmed', message: r.data.message });
    else failed(r.error);
  };

  const notMe = async () => {
    if (busy) return;
    setError(null);
    setBusy('cancel');
    const r = await cancelRegistration(token);
    setBusy(null);
    if (r.ok) setState({ kind: 'cancelled', message: r.data.message });
    else failed(r.error);
  };

  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        Confirm your email address
      </Heading>
      {state.kind === 'asking' ? (
        <form onSubmit={submit} noValidate aria-label="Confirm your email address">
          <Flex direction="column" gap="1rem">
            <Text>
              Enter the password you chose when you registered. Only the person who registered knows it, so
              nobody else can take this address.
            </Text>
            <SecretField
              label="Password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(value) => {
                setPassword(value);
                setError(null);
              }}
              hasError={Boolean(error)}
            />
            <FormAlert message={error} />
            <SubmitRow action={{ label: 'Confirm', busyLabel: 'Confirming…' }} busy={busy === 'confirm'} />
            <Divider />
            <Text>Did someone else register with your address? Cancel it: the address is freed at once.</Text>
            <Flex>
              <Button onClick={notMe} isLoading={busy === 'cancel'} loadingText="Cancelling…">
                I did not register
              </Button>
            </Flex>
          </Flex>
        </form>
      ) : null}
      {state.kind === 'confirmed' ? (
        <Flex direction="column" gap="1rem">
          <Alert variation="success" role="status">
            {state.message}
          </Alert>
          <Link to={paths.login} className="amplify-button amplify-button--primary">
            {MSG.signIn}
          </Link>
        </Flex>
      ) : null}
      {state.kind === 'cancelled' ? (
        <Alert variation="info" role="status">
          {state.message}
        </Alert>
      ) : null}
      {state.kind === 'failed' ? (
        <Flex direction="column" gap="1rem">
          <Alert variation="error" role="alert">
            {state.message}
          </Alert>
          {state.reason === 'USED' ? <Link to={paths.login}>{MSG.signIn}</Link> : null}
          <NewLinkForm />
        </Flex>
      ) : null}
    </div>
  );
}

/** Mails a new link to an address that waits for confirmation (the same answer for any address). */
function NewLinkForm() {
  const [answer, setAnswer] = useState<string | null>(null);
  const { email, setEmail, error, setError, busy, submit } = useEmailForm({
    invalid: (value) => (isEmail(value) ? null : MSG.registerEmailRequired),
    send: resendConfirmation,
    done: (r, setFailure) => {
      if (r.ok) {
        setFailure(null);
        setAnswer(r.data.message);
      } else setFailure(r.error.errorMessage);
    },
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Get a new link">
      <Flex direction="column" gap="0.75rem">
        <Text>Get a new link:</Text>
        <EmailAddressField
          autoComplete="email"
          isRequired={false}
          value={email}
          onChange={(value) => {
            setEmail(value);
            setError(null);
          }}
          hasError={Boolean(error)}
          errorMessage={error ?? undefined}
        />
        <FormAlert variation="info" message={answer} />
        <SubmitRow action={{ label: 'Send a new link', busyLabel: 'Sending…' }} busy={busy} />
      </Flex>
    </form>
  );
}
