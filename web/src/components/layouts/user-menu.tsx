import { Divider, Menu, MenuButton, MenuItem } from '@aws-amplify/ui-react';
import { roleLabel } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { logOut } from '@/lib/session/log-out';
import type { SessionUser } from '@/lib/session/session-store';
import { initials } from '@/utils/initials';

/** The role as the menu shows it: a requested role still waits for an admin. */
function roleLine(user: SessionUser): string {
  const role = roleLabel(user.userRole);
  if (user.roleStatus === 'NONE') return 'No role yet';
  if (user.roleStatus === 'REQUESTED') return `${role} (requested, waiting for an admin)`;
  if (user.roleStatus === 'REFUSED') return `${role} (refused)`;
  return role;
}

/**
 * Spec §1, §2.4: the avatar with the user's initials; its menu has Settings and Log Out. Above them it
 * says who is signed in and in which role: the name and role an approval is recorded under.
 */
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
      <p className="frp-user-menu__who" data-testid="user-menu-who">
        <span className="amplify-visually-hidden">Signed in as </span>
        <strong className="frp-user-menu__name">{user.name}</strong>
        <span className="frp-user-menu__role">{roleLine(user)}</span>
      </p>
      <Divider size="small" />
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
