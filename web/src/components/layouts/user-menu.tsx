import { Menu, MenuButton, MenuItem } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { logOut } from '@/lib/session/log-out';
import type { SessionUser } from '@/lib/session/session-store';
import { initials } from '@/utils/initials';

/** Spec §1, §2.4: the avatar with the user's initials; its menu has Settings and Log Out. */
export function UserMenu({
  user,
  showSettings,
  settingsPath = paths.settings,
}: {
  user: SessionUser;
  showSettings: boolean;
  settingsPath?: string;
}) {
  const navigate = useNavigate();
  return (
    <Menu
      menuAlign="end"
      trigger={
        <MenuButton
          className="frp-avatar-button"
          aria-label={`Account menu of ${user.name}`}
          title={user.name}
        >
          <span aria-hidden="true" data-testid="avatar-initials">
            {initials(user.name)}
          </span>
        </MenuButton>
      }
    >
      {showSettings ? <MenuItem onClick={() => navigate(settingsPath)}>{MSG.settings}</MenuItem> : null}
      <MenuItem
        onClick={async () => {
          await logOut();
          navigate(paths.login);
        }}
      >
        {MSG.logOut}
      </MenuItem>
    </Menu>
  );
}
