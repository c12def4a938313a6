import { Text } from '@aws-amplify/ui-react';
import { API_ERR, MSG } from '@shared/messages';
import { EmailAddressField } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { resetPassword } from '../api/auth-api';
import { useEmailForm } from '../hooks/use-email-form';
import { AuthFormCard } from './auth-form-card';

/** Spec §2.1 /user/reset-password, §5 and §8 reset rules. */
export function ResetPasswordForm() {
  const { email, setEmail, error, setError, busy, submit } = useEmailForm({
    invalid: (value) => (value.trim() === '' ? MSG.loginEmpty : null),
    send: resetPassword,
    done: (result, setFailure) => {
      if (result.ok) {
        showSuccess(MSG.resetMailSent, { buttonLabel: MSG.toLoginPage, to: paths.login });
        return;
      }
      const authError = result.error.authError;
      if (authError === API_ERR.userNotFound) setFailure(MSG.resetUserNotFoundShownAs);
      else setFailure(authError ?? result.error.errorMessage);
    },
  });

  return (
    <AuthFormCard
      title="Reset password"
      intro={
        <Text marginBottom="1rem" color="font.secondary">
          Enter the email address you sign in with. A new temporary password will be sent to it.
        </Text>
      }
      onSubmit={submit}
      failure={error}
      footer={{
        to: paths.login,
        link: 'Back to sign in',
        action: { label: MSG.submit, busyLabel: 'Sending…' },
      }}
      busy={busy}
    >
      <EmailAddressField
        value={email}
        onChange={(value) => {
          setEmail(value);
          setError(null);
        }}
        hasError={Boolean(error)}
      />
    </AuthFormCard>
  );
}
