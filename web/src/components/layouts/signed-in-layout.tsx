import { UPLOADER_ROLES } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { Outlet } from 'react-router-dom';
import { paths } from '@/config/paths';
import { settingsOnly, useSession } from '@/lib/session/session-store';
import { AppHeader } from './app-header';
import { AppShell } from './app-shell';
import { NavBar, type NavItem } from './nav-bar';
import { useRouteTab } from './use-route-tab';
import { UserMenu } from './user-menu';

const ITEMS: readonly NavItem[] = [
  { tab: 'packages', label: MSG.navPackages, to: paths.packages.list },
  { tab: 'patches', label: MSG.navPatches, to: paths.patches },
  { tab: 'models', label: MSG.navModels, to: paths.models },
  { tab: 'approval', label: MSG.navApproval, to: paths.packages.approve },
  { tab: 'signing', label: MSG.navSigning, to: paths.packages.sign },
  { tab: 'upload', label: MSG.navUpload, to: paths.upload },
];

/** The ordinary signed-in layout (spec §2.2, §2.4); UPLOAD only for the two Design Engineer roles (§6). */
export function SignedInLayout() {
  const s = useSession();
  const { user } = s;
  const selected = useRouteTab();
  const canUpload = user ? UPLOADER_ROLES.includes(user.userRole) : false;
  // a role not granted yet, or a password to change first: the settings page only, no tabs
  const items = settingsOnly(s) ? [] : ITEMS.filter((item) => item.tab !== 'upload' || canUpload);
  return (
    <AppShell
      header={<AppHeader>{user ? <UserMenu user={user} showSettings /> : null}</AppHeader>}
      nav={<NavBar items={items} selected={selected} label="Main" />}
    >
      <Outlet />
    </AppShell>
  );
}
