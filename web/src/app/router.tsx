import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { RootLayout } from '@/components/layouts/root-layout';
import { RouteError } from '@/components/layouts/route-error';
import type { RouteHandle } from '@/components/layouts/use-route-tab';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { ROUTE_LIST, type RouteAccess, type RoutePath, type RouteRow } from '@/config/routes';
import { makeGuards } from '@/lib/session/guards';
import { restoreSession } from '@/lib/session/restore-session';
import { LAYOUTS, SCREENS } from './route-screens';

function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= run();
    return running;
  };
}

type Row = RouteRow & { path: RoutePath };

/** The rows of one layout as its children: paths relative to the layout, its own path as the index. */
function childrenOf(layout: string, rows: readonly Row[], extra: (row: Row) => RouteObject = () => ({})) {
  return rows.map((row): RouteObject => {
    const path = row.path === layout ? '' : row.path.slice(layout === '/' ? 1 : layout.length + 1);
    const handle =
      row.tab !== undefined || row.title !== undefined ? { tab: row.tab, title: row.title } : undefined;
    return {
      ...(path === '' ? { index: true } : { path }),
      ...extra(row),
      ...(handle ? { handle: handle satisfies RouteHandle } : {}),
      lazy: SCREENS[row.path],
    } as RouteObject;
  });
}

const rowsFor = (...access: RouteAccess[]) => ROUTE_LIST.filter((r) => access.includes(r.access));

/** The route tree of spec §2 (one per router: each restores the session once at start, spec §4.7). */
export function createRoutes(): RouteObject[] {
  const ready = once(restoreSession);
  const guards = makeGuards(ready);
  const recheck = () => true;

  return [
    {
      id: 'root',
      element: <RootLayout />,
      errorElement: <RouteError />,
      HydrateFallback: FullPageLoader,
      loader: async () => {
        await ready();
        return null;
      },
      shouldRevalidate: () => false,
      children: [
        {
          element: <PublicLayout />,
          // public pages run their own guard: the layout has none
          children: childrenOf('/', rowsFor('any', 'anonymous'), (row) =>
            row.access === 'anonymous'
              ? { loader: guards.anonymous, shouldRevalidate: recheck }
              : { loader: guards.any },
          ),
        },
        {
          path: 'admin',
          lazy: LAYOUTS.admin,
          loader: guards.admin,
          shouldRevalidate: recheck,
          children: childrenOf('/admin', rowsFor('admin')),
        },
        {
          id: 'signed-in',
          lazy: LAYOUTS.user,
          loader: guards.user,
          shouldRevalidate: recheck,
          children: childrenOf('/', rowsFor('user')),
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
