import { MSG } from '@shared/messages';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session/session-store';
import { AppHeader } from './app-header';
import { AppShell } from './app-shell';

/** Pages for visitors (spec §2.1): 'Sign in' in the header, or 'Sign up' on the login page. */
export function PublicLayout() {
  const { pathname } = useLocation();
  const { isAuthenticated } = useSession();
  const onLogin = pathname === paths.login;
  return (
    <AppShell
      header={
        <AppHeader>
          {isAuthenticated ? null : onLogin ? (
            <Link className="frp-header__link" to={paths.register}>
              {MSG.signUp}
            </Link>
          ) : (
            <Link className="frp-header__link" to={paths.login}>
              {MSG.signIn}
            </Link>
          )}
        </AppHeader>
      }
    >
      <Outlet />
    </AppShell>
  );
}
