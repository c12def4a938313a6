import { Alert, Button, Flex, PasswordField } from '@aws-amplify/ui-react';
import { PASSWORD_MAX, PASSWORD_MIN, passwordPolicyMessage } from '@shared/api/contracts/user';
import { MSG } from '@shared/messages';
import { type FormEvent, useState } from 'react';
import { paths } from '@/config/paths';
import { showSuccess } from '@/lib/popup/popup-store';
import { setToken } from '@/lib/session/token-cookie';
import { changePassword } from '../api/settings-api';

/** Spec §2.10 'Change password' and its §5 rules; a wrong old password shows the server's authError. */
export function PasswordForm() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
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
      showSuccess(MSG.settingsSaved, { to: paths.home });
      return;
    }
    setError(result.error.authError ?? result.error.errorMessage);
  };

  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setError(null);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={MSG.changePassword}>
      <Flex direction="column" gap="1rem">
        <PasswordField
          label="Old password"
          name="oldPassword"
          autoComplete="current-password"
          value={oldPassword}
          onChange={edit(setOldPassword)}
          hasError={Boolean(error)}
          isRequired
        />
        <PasswordField
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          descriptiveText={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
          value={newPassword}
          onChange={edit(setNewPassword)}
          hasError={Boolean(error)}
          isRequired
        />
        <PasswordField
          label="Repeat new password"
          name="repeatNewPassword"
          autoComplete="new-password"
          value={repeat}
          onChange={edit(setRepeat)}
          hasError={Boolean(error)}
          isRequired
        />
        {error ? (
          <Alert variation="error" role="alert">
            {error}
          </Alert>
        ) : null}
        <Flex justifyContent="flex-end">
          <Button type="submit" variation="primary" isLoading={busy} loadingText="Saving…">
            {MSG.save}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
