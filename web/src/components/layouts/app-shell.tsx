import type { ReactNode } from 'react';
import { AppFooter } from './app-footer';

/** Header, optional navigation, main content, footer; a skip link first for keyboard users. */
export function AppShell({
  header,
  nav,
  children,
}: {
  header: ReactNode;
  nav?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="frp-app">
      <a className="frp-skip-link" href="#main">
        Skip to main content
      </a>
      {header}
      {nav}
      <main id="main" className="frp-main" tabIndex={-1}>
        {children}
      </main>
      <AppFooter />
    </div>
  );
}
