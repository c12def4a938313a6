import { Alert, Heading, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { missingAuthorityMessage } from '@shared/domain/identity';
import { API_ERR, MSG } from '@shared/messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { awaitsGrant, useSession } from '@/lib/session/session-store';
import { AccessTokens } from './access-tokens';
import { Passkeys } from './passkeys';
import { PasswordForm } from './password-form';
import { UserInfoForm } from './user-info-form';

type Mode = 'info' | 'password' | 'passkeys' | 'tokens';

/**
 * Spec §2.10 /user/settings: a toggle between 'Change user info' and 'Change password'. With a
 * temporary or one-time password it is the password form alone, until the password is changed; an account
 * whose role waits for an admin's grant sees this page only, and is told why.
 */
export function SettingsPage() {
  const { user, mustChangePassword } = useSession();
  const [searchParams] = useSearchParams();
  // ?form=password opens the password form; &first=1 after signing in with a one-time password
  const form = searchParams.get('form');
  const [mode, setMode] = useState<Mode>(
    form === 'password' || form === 'passkeys' || form === 'tokens' ? form : 'info',
  );
  if (!user) return null;
  if (mustChangePassword)
    return (
      <div className="frp-card frp-form-card">
        <Heading level={1} className="frp-page-title">
          {MSG.changePassword}
        </Heading>
        <Alert variation="warning" role="status" marginBottom="1rem">
          {API_ERR.mustChangePassword}
        </Alert>
        <PasswordForm />
      </div>
    );
  return (
    <div
      className={`frp-card frp-form-card${mode === 'tokens' || mode === 'passkeys' ? ' frp-wide-card' : ''}`}
    >
      <Heading level={1} className="frp-page-title">
        {MSG.settings}
      </Heading>
      {awaitsGrant(user) ? (
        <Alert
          variation="info"
          role="status"
          marginBottom="1rem"
          heading={user.roleStatus === 'NONE' ? 'Choose your role' : 'Your role awaits an administrator'}
        >
          {missingAuthorityMessage({ ...user, emailConfirmed: true })}
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
        {/* an account made by a company sign-in has no portal password to change (decision 317) */}
        {user.passwordless ? null : <ToggleButton value="password">{MSG.changePassword}</ToggleButton>}
        {/* decision 322: a second factor at sign-in and a way to sign decisions */}
        <ToggleButton value="passkeys">Passkeys</ToggleButton>
        {/* a granted person's tokens for build pipelines (an admin: every token) */}
        {awaitsGrant(user) ? null : <ToggleButton value="tokens">Access tokens</ToggleButton>}
      </ToggleButtonGroup>
      {mode === 'info' ? (
        <UserInfoForm user={user} />
      ) : mode === 'password' ? (
        <PasswordForm />
      ) : mode === 'passkeys' ? (
        <Passkeys />
      ) : (
        <AccessTokens user={user} />
      )}
    </div>
  );
}
