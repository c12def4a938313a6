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
];

/**
 * The admin layout (spec §2.3). The avatar menu has Log Out only: /user/settings belongs to the
 * ordinary layout, which sends admins back here.
 */
export function AdminLayout() {
  const { user } = useSession();
  const selected = useRouteTab();
  return (
    <AppShell
      header={<AppHeader>{user ? <UserMenu user={user} showSettings={false} /> : null}</AppHeader>}
      nav={<NavBar items={ITEMS} selected={selected} label="Administration" />}
    >
      <Outlet />
    </AppShell>
  );
}
