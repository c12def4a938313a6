import { MSG } from '@shared/messages';
import { Outlet } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { AppHeader } from './app-header';
import { AppShell } from './app-shell';
import { NavBar, type NavItem } from './nav-bar';
import { useRouteTab } from './use-route-tab';
import { UserMenu } from './user-menu';

const ITEMS: readonly NavItem[] = [
  { tab: 'admin-packages', label: MSG.navPackages, to: paths.admin.packages },
  { tab: 'admin-dcc', label: MSG.navDcc, to: paths.admin.dcc },
  { tab: 'admin-users', label: MSG.navUsers, to: paths.admin.users },
  { tab: 'admin-resources', label: MSG.navResources, to: paths.admin.resources },
  // beside the spec's four: the audit trail (decision 346)
  { tab: 'admin-audit', label: MSG.navAudit, to: paths.admin.audit },
];

/**
 * The admin layout (spec §2.3). /user/settings belongs to the ordinary layout, which sends admins back
 * here, so the avatar menu's Settings opens /admin/settings (an admin edits their own name,
 * email and password there).
 */
export function AdminLayout() {
  const { user, mustChangePassword } = useSession();
  const selected = useRouteTab();
  return (
    <AppShell
      header={
        <AppHeader>
          {user ? <UserMenu user={user} showSettings settingsPath={paths.admin.settings} /> : null}
        </AppHeader>
      }
      nav={<NavBar items={mustChangePassword ? [] : ITEMS} selected={selected} label="Administration" />}
    >
      <Outlet />
    </AppShell>
  );
}
