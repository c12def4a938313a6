import { Alert, Heading, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { API_ERR, MSG } from '@shared/messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '@/lib/session/session-store';
import { PasswordForm } from './password-form';
import { UserInfoForm } from './user-info-form';

type Mode = 'info' | 'password';

/** Spec §2.10 /user/settings: a toggle between 'Change user info' and 'Change password'. */
export function SettingsPage() {
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  // ?form=password opens the password form; &first=1 after signing in with a one-time password
  const [mode, setMode] = useState<Mode>(searchParams.get('form') === 'password' ? 'password' : 'info');
  const firstSignIn = searchParams.get('first') === '1';
  if (!user) return null;
  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        {MSG.settings}
      </Heading>
      {firstSignIn ? (
        <Alert variation="warning" role="status" marginBottom="1rem">
          {API_ERR.mustChangePassword}
        </Alert>
      ) : null}
      <ToggleButtonGroup
        value={mode}
        isExclusive
        isSelectionRequired
        onChange={(value) => setMode(value as Mode)}
        aria-label="What to change"
        marginBottom="1.5rem"
        size="small"
      >
        <ToggleButton value="info">{MSG.changeUserInfo}</ToggleButton>
        <ToggleButton value="password">{MSG.changePassword}</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'info' ? <UserInfoForm user={user} /> : <PasswordForm />}
    </div>
  );
}
