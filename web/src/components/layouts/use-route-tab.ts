import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';
import { type NavTab, session, useSession } from '@/lib/session/session-store';

/** What a route says about the navigation bar: a tab to select, null to clear it, absent to keep it. */
export interface RouteHandle {
  tab?: NavTab | null;
  /** what the page is (config/routes.ts); '' where it shows the session's subHeader */
  title?: string;
}

/**
 * Keeps the session's selectedTab (spec §3) in step with the route: list pages select their tab,
 * /home and /user/settings clear it (spec §2.4), pages inside a flow keep the tab they came from.
 */
export function useRouteTab(): NavTab | null {
  const matches = useMatches();
  const { selectedTab } = useSession();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.tab !== undefined)
    ?.handle as RouteHandle | undefined;
  const tab = handle?.tab;
  useEffect(() => {
    if (tab !== undefined && tab !== session.get().selectedTab) session.update({ selectedTab: tab });
  }, [tab]);
  return tab !== undefined ? tab : selectedTab;
}
