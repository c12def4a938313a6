import { Flex } from '@aws-amplify/ui-react';
import { PASSWORD_MAX, PASSWORD_MIN, passwordPolicyMessage } from '@shared/api/contracts/user';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { FormAlert, SecretField, SubmitRow } from '@/components/ui/form-parts';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { setToken } from '@/lib/session/token-cookie';
import { changePassword } from '../api/settings-api';

/** The three password inputs, in order. */
const FIELDS = [
  { label: 'Old password', name: 'oldPassword', autoComplete: 'current-password' },
  {
    label: 'New password',
    name: 'newPassword',
    autoComplete: 'new-password',
    hint: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
  },
  { label: 'Repeat new password', name: 'repeatNewPassword', autoComplete: 'new-password' },
] as const;

/** Spec §2.10 'Change password' and its §5 rules; a wrong old password shows the server's authError. */
export function PasswordForm() {
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', repeatNewPassword: '' });
  const { oldPassword, newPassword, repeatNewPassword: repeat } = values;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (oldPassword === '' || newPassword === '' || repeat === '') return setError(MSG.passwordFieldsEmpty);
    if (newPassword !== repeat) return setError(MSG.newPasswordsDiffer);
    if (newPassword.length < PASSWORD_MIN || newPassword.length > PASSWORD_MAX)
      return setError(passwordPolicyMessage);
    setError(null);
    setBusy(true);
    const result = await changePassword({ oldPassword, newPassword });
    setBusy(false);
    if (result.ok) {
      // the server revoked every older token: keep signed in with the new one
      if (result.data.token) setToken(result.data.token);
      // a temporary or one-time password is replaced: the rest of the app opens again
      session.update({ mustChangePassword: false });
      showSuccess(MSG.settingsSaved, { to: paths.home });
      return;
    }
    setError(result.error.authError ?? result.error.errorMessage);
  };

  const edit = (name: keyof typeof values, value: string) => {
    setValues((all) => ({ ...all, [name]: value }));
    setError(null);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={MSG.changePassword}>
      <Flex direction="column" gap="1rem">
        {FIELDS.map((f) => (
          <SecretField
            key={f.name}
            {...f}
            value={values[f.name]}
            onChange={(v) => edit(f.name, v)}
            hasError={Boolean(error)}
          />
        ))}
        <FormAlert message={error} />
        <SubmitRow action={{ label: MSG.save, busyLabel: 'Saving…' }} busy={busy} />
      </Flex>
    </form>
  );
}
