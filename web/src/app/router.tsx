import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { RootLayout } from '@/components/layouts/root-layout';
import { RouteError } from '@/components/layouts/route-error';
import type { RouteHandle } from '@/components/layouts/use-route-tab';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { withTimeout } from '@/lib/lazy-with-timeout';
import { makeGuards } from '@/lib/session/guards';
import { restoreSession } from '@/lib/session/restore-session';

/**
 * A lazily loaded screen or layout (its own chunk: the login page does not pull the rest; the
 * signed-in layouts bring the avatar menu). Guards stay static so they run while the chunk loads.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return withTimeout(async () => ({ Component: pick(await load()) }));
}

const home = page(
  () => import('@/features/home/components/home-page'),
  (m) => m.HomePage,
);
const adminHome = page(
  () => import('@/features/admin/components/admin-home'),
  (m) => m.AdminHome,
);

const details = (
  pick: (m: typeof import('@/features/packages/components/package-details-page')) => ComponentType,
) => page(() => import('@/features/packages/components/package-details-page'), pick);
const lists = (
  pick: (m: typeof import('@/features/packages/components/package-list-page')) => ComponentType,
) => page(() => import('@/features/packages/components/package-list-page'), pick);

/** The package screens of issue 6 (spec §2.5–§2.9), by path. */
const PACKAGE_PAGES: Record<string, RouteObject['lazy']> = {
  packages: lists((m) => m.PackagesPage),
  'packages/create': page(
    () => import('@/features/packages/components/create-package-page'),
    (m) => m.CreatePackagePage,
  ),
  'packages/header': page(
    () => import('@/features/packages/components/header-editor-page'),
    (m) => m.HeaderEditorPage,
  ),
  'packages/header/view': page(
    () => import('@/features/packages/components/header-view-page'),
    (m) => m.HeaderViewPage,
  ),
  'packages/dcc': page(
    () => import('@/features/packages/components/dcc-list-page'),
    (m) => m.DccListPage,
  ),
  'packages/dcc/create': page(
    () => import('@/features/packages/components/dcc-create-page'),
    (m) => m.DccCreatePage,
  ),
  'packages/approve': lists((m) => m.ApproveListPage),
  'packages/approve/view': details((m) => m.ApproveViewPage),
  'packages/sign': lists((m) => m.SignListPage),
  'packages/sign/view': details((m) => m.SignViewPage),
  'packages/dev/view': details((m) => m.DevViewPage),
  'packages/rejected/view': details((m) => m.RejectedViewPage),
  'packages/release/view': details((m) => m.ReleaseViewPage),
  'packages/approval-pending/view': details((m) => m.ApprovalPendingViewPage),
  'packages/notify-approvers': page(
    () => import('@/features/packages/components/notify-approvers-page'),
    (m) => m.NotifyApproversPage,
  ),
  'packages/download': page(
    () => import('@/features/packages/components/download-page'),
    (m) => m.DownloadPage,
  ),
};

/**
 * The package screens of issue 6 as guarded routes (their components in PACKAGE_PAGES).
 * `title: ''` means the page shows the session's subHeader (the creation title set by /patches and /models).
 */
const ISSUE_6_ROUTES: readonly { path: string; title: string; tab?: RouteHandle['tab'] }[] = [
  { path: 'packages', title: 'Packages', tab: 'packages' },
  { path: 'packages/create', title: '' },
  { path: 'packages/header', title: 'Edit package header' },
  { path: 'packages/header/view', title: 'Package header' },
  { path: 'packages/dcc', title: 'Choose a DCC' },
  { path: 'packages/dcc/create', title: 'Create DCC' },
  { path: 'packages/approve', title: 'Approval', tab: 'approval' },
  { path: 'packages/approve/view', title: 'Package approval' },
  { path: 'packages/sign', title: 'Signing', tab: 'signing' },
  { path: 'packages/sign/view', title: 'Package signing' },
  { path: 'packages/dev/view', title: 'Package details' },
  { path: 'packages/rejected/view', title: 'Rejected package' },
  { path: 'packages/release/view', title: 'Package details' },
  { path: 'packages/approval-pending/view', title: 'Package approval pending' },
  { path: 'packages/notify-approvers', title: 'Notify approvers' },
  { path: 'packages/download', title: 'Package download' },
];

function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= run();
    return running;
  };
}

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
          children: [
            {
              path: 'login',
              loader: guards.any,
              lazy: page(
                () => import('@/features/auth/components/login-form'),
                (m) => m.LoginForm,
              ),
            },
            {
              path: 'register',
              loader: guards.any,
              lazy: page(
                () => import('@/features/auth/components/register-form'),
                (m) => m.RegisterForm,
              ),
            },
            {
              path: 'user/reset-password',
              loader: guards.anonymous,
              shouldRevalidate: recheck,
              lazy: page(
                () => import('@/features/auth/components/reset-password-form'),
                (m) => m.ResetPasswordForm,
              ),
            },
            {
              // the link of the confirmation mail (issue 12): anyone may open it
              path: 'user/confirm-email',
              loader: guards.any,
              lazy: page(
                () => import('@/features/auth/components/confirm-email-page'),
                (m) => m.ConfirmEmailPage,
              ),
            },
          ],
        },
        {
          path: 'admin',
          lazy: page(
            () => import('@/components/layouts/admin-layout'),
            (m) => m.AdminLayout,
          ),
          loader: guards.admin,
          shouldRevalidate: recheck,
          children: [
            { index: true, lazy: adminHome, handle: { tab: null } satisfies RouteHandle },
            {
              path: 'packages',
              handle: { tab: 'admin-packages' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/admin/components/admin-pages'),
                (m) => m.AdminPackagesPage,
              ),
            },
            {
              path: 'dcc',
              handle: { tab: 'admin-dcc' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/admin/components/admin-pages'),
                (m) => m.AdminDccPage,
              ),
            },
            {
              path: 'users',
              handle: { tab: 'admin-users' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/admin/components/admin-pages'),
                (m) => m.AdminUsersPage,
              ),
            },
            {
              path: 'resources',
              handle: { tab: 'admin-resources' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/admin/components/admin-pages'),
                (m) => m.AdminResourcesPage,
              ),
            },
            {
              // the admin's own name, email and password (issue 12); the role is not theirs to change
              path: 'settings',
              handle: { tab: null } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/settings/components/settings-page'),
                (m) => m.SettingsPage,
              ),
            },
            // spec §2.3: unknown paths under the admin area show the admin home page
            { path: '*', lazy: adminHome, handle: { tab: null } satisfies RouteHandle },
          ],
        },
        {
          id: 'signed-in',
          lazy: page(
            () => import('@/components/layouts/signed-in-layout'),
            (m) => m.SignedInLayout,
          ),
          loader: guards.user,
          shouldRevalidate: recheck,
          children: [
            { index: true, lazy: home, handle: { tab: null } satisfies RouteHandle },
            { path: 'home', lazy: home, handle: { tab: null } satisfies RouteHandle },
            {
              path: 'user/settings',
              handle: { tab: null } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/settings/components/settings-page'),
                (m) => m.SettingsPage,
              ),
            },
            {
              path: 'patches',
              handle: { tab: 'patches' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/resources/components/resource-pages'),
                (m) => m.PatchesPage,
              ),
            },
            {
              path: 'models',
              handle: { tab: 'models' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/resources/components/resource-pages'),
                (m) => m.ModelsPage,
              ),
            },
            {
              path: 'upload',
              handle: { tab: 'upload' } satisfies RouteHandle,
              lazy: page(
                () => import('@/features/upload/components/upload-page'),
                (m) => m.UploadPage,
              ),
            },
            ...ISSUE_6_ROUTES.map(
              ({ path, title, tab }): RouteObject => ({
                path,
                handle: { tab, title } satisfies RouteHandle & { title: string },
                lazy: PACKAGE_PAGES[path],
              }),
            ),
            // spec §2.2: any unknown path shows the home page
            { path: '*', lazy: home, handle: { tab: null } satisfies RouteHandle },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
