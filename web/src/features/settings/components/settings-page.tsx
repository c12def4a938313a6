import { Heading, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { useSession } from '@/lib/session/session-store';
import { PasswordForm } from './password-form';
import { UserInfoForm } from './user-info-form';

type Mode = 'info' | 'password';

/** Spec §2.10 /user/settings: a toggle between 'Change user info' and 'Change password'. */
export function SettingsPage() {
  const { user } = useSession();
  const [mode, setMode] = useState<Mode>('info');
  if (!user) return null;
  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        {MSG.settings}
      </Heading>
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
