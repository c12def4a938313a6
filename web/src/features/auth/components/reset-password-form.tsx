import { Flex, Heading, Text } from '@aws-amplify/ui-react';
import { API_ERR, MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { EmailAddressField, FormAlert, LinkAndSubmit } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { resetPassword } from '../api/auth-api';

/** Spec §2.1 /user/reset-password, §5 and §8 reset rules. */
export function ResetPasswordForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (email.trim() === '') {
      setError(MSG.loginEmpty);
      return;
    }
    setBusy(true);
    const result = await resetPassword(email.trim());
    setBusy(false);
    if (result.ok) {
      showSuccess(MSG.resetMailSent, { buttonLabel: MSG.toLoginPage, to: paths.login });
      return;
    }
    const authError = result.error.authError;
    if (authError === API_ERR.userNotFound) setError(MSG.resetUserNotFoundShownAs);
    else setError(authError ?? result.error.errorMessage);
  };

  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        Reset password
      </Heading>
      <Text marginBottom="1rem" color="font.secondary">
        Enter the email address you sign in with. A new temporary password will be sent to it.
      </Text>
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="1rem">
          <EmailAddressField
            value={email}
            onChange={(value) => {
              setEmail(value);
              setError(null);
            }}
            hasError={Boolean(error)}
          />
          <FormAlert message={error} />
          <LinkAndSubmit
            to={paths.login}
            link="Back to sign in"
            action={{ label: MSG.submit, busyLabel: 'Sending…' }}
            busy={busy}
          />
        </Flex>
      </form>
    </div>
  );
}
