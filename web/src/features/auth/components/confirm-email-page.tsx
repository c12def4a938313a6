import { Alert, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { EmailAddressField, FormAlert, SubmitRow } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { isEmail } from '@/utils/validation';
import { confirmEmail, resendConfirmation } from '../api/auth-api';
import { useEmailForm } from '../hooks/use-email-form';

type State =
  | { kind: 'checking' }
  | { kind: 'confirmed'; message: string }
  | { kind: 'failed'; message: string; reason: string };

/**
 * /user/confirm-email?token=… (issue 12): the link of the confirmation mail. Confirms once on opening and
 * shows the result; a link that expired, was used or is broken offers to mail a new one.
 */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'checking' });
  const sent = useRef<string | null>(null);

  useEffect(() => {
    // one call per token, also when React runs effects twice in development
    if (sent.current === token) return;
    sent.current = token;
    if (!token) {
      setState({
        kind: 'failed',
        message: 'This page needs the whole link from the confirmation mail.',
        reason: 'INVALID',
      });
      return;
    }
    void confirmEmail(token).then((r) => {
      if (r.ok) setState({ kind: 'confirmed', message: r.data.message });
      else
        setState({
          kind: 'failed',
          message: r.error.errorMessage,
          reason: typeof r.error.reason === 'string' ? r.error.reason : 'INVALID',
        });
    });
  }, [token]);

  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        Confirm your email address
      </Heading>
      {state.kind === 'checking' ? <Text>Checking your link…</Text> : null}
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
