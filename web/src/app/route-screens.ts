import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { RouteAccess, RoutePath } from '@/config/routes';
import { withTimeout } from '@/lib/lazy-with-timeout';

/**
 * A lazily loaded screen (its own chunk: the login page does not pull the rest). The import runs only
 * when the route is first visited, so this list may name every screen without loading any.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return withTimeout(async () => ({ Component: pick(await load()) }));
}

/** The signed-in layouts, each its own chunk (they bring the avatar menu); the public layout is static. */
export const LAYOUTS = {
  admin: page(
    () => import('@/components/layouts/admin-layout'),
    (m) => m.AdminLayout,
  ),
  user: page(
    () => import('@/components/layouts/signed-in-layout'),
    (m) => m.SignedInLayout,
  ),
} satisfies Partial<Record<RouteAccess, RouteObject['lazy']>>;

const home = page(
  () => import('@/features/home/components/home-page'),
  (m) => m.HomePage,
);
const adminHome = page(
  () => import('@/features/admin/components/admin-home'),
  (m) => m.AdminHome,
);
const settings = page(
  () => import('@/features/settings/components/settings-page'),
  (m) => m.SettingsPage,
);
const resources = (
  pick: (m: typeof import('@/features/resources/components/resource-pages')) => ComponentType,
) => page(() => import('@/features/resources/components/resource-pages'), pick);
const admin = (pick: (m: typeof import('@/features/admin/components/admin-pages')) => ComponentType) =>
  page(() => import('@/features/admin/components/admin-pages'), pick);
const lists = (
  pick: (m: typeof import('@/features/packages/components/package-list-page')) => ComponentType,
) => page(() => import('@/features/packages/components/package-list-page'), pick);
const details = (
  pick: (m: typeof import('@/features/packages/components/package-details-page')) => ComponentType,
) => page(() => import('@/features/packages/components/package-details-page'), pick);

/** Every screen of the app (spec §2), in one place. */
/** The screen of each path of the route list (config/routes.ts): a path without a screen, or a screen of
 * no path, is a type error. */
export const SCREENS = {
  '/login': page(
    () => import('@/features/auth/components/login-form'),
    (m) => m.LoginForm,
  ),
  '/login/company': page(
    () => import('@/features/auth/components/company-callback-page'),
    (m) => m.CompanyCallbackPage,
  ),
  '/register': page(
    () => import('@/features/auth/components/register-form'),
    (m) => m.RegisterForm,
  ),
  '/user/reset-password': page(
    () => import('@/features/auth/components/reset-password-form'),
    (m) => m.ResetPasswordForm,
  ),
  '/user/confirm-email': page(
    () => import('@/features/auth/components/confirm-email-page'),
    (m) => m.ConfirmEmailPage,
  ),
  '/admin': adminHome,
  '/admin/packages': admin((m) => m.AdminPackagesPage),
  '/admin/dcc': admin((m) => m.AdminDccPage),
  '/admin/users': admin((m) => m.AdminUsersPage),
  '/admin/resources': admin((m) => m.AdminResourcesPage),
  '/admin/audit': page(
    () => import('@/features/admin/components/audit-trail-page'),
    (m) => m.AuditTrailPage,
  ),
  '/admin/settings': settings,
  '/admin/*': adminHome,
  '/': home,
  '/home': home,
  '/user/settings': settings,
  '/patches': resources((m) => m.PatchesPage),
  '/models': resources((m) => m.ModelsPage),
  '/upload': page(
    () => import('@/features/upload/components/upload-page'),
    (m) => m.UploadPage,
  ),
  '/packages': lists((m) => m.PackagesPage),
  '/packages/create': page(
    () => import('@/features/packages/components/create-package-page'),
    (m) => m.CreatePackagePage,
  ),
  '/packages/header': page(
    () => import('@/features/packages/components/header-editor-page'),
    (m) => m.HeaderEditorPage,
  ),
  '/packages/header/view': page(
    () => import('@/features/packages/components/header-view-page'),
    (m) => m.HeaderViewPage,
  ),
  '/packages/dcc': page(
    () => import('@/features/packages/components/dcc-list-page'),
    (m) => m.DccListPage,
  ),
  '/packages/dcc/create': page(
    () => import('@/features/packages/components/dcc-create-page'),
    (m) => m.DccCreatePage,
  ),
  '/packages/approve': lists((m) => m.ApproveListPage),
  '/packages/approve/view': details((m) => m.ApproveViewPage),
  '/packages/sign': lists((m) => m.SignListPage),
  '/packages/sign/view': details((m) => m.SignViewPage),
  '/packages/dev/view': details((m) => m.DevViewPage),
  '/packages/rejected/view': details((m) => m.RejectedViewPage),
  '/packages/release/view': details((m) => m.ReleaseViewPage),
  '/packages/approval-pending/view': details((m) => m.ApprovalPendingViewPage),
  '/packages/notify-approvers': page(
    () => import('@/features/packages/components/notify-approvers-page'),
    (m) => m.NotifyApproversPage,
  ),
  '/packages/download': page(
    () => import('@/features/packages/components/download-page'),
    (m) => m.DownloadPage,
  ),
  '/packages/open/:id': page(
    () => import('@/features/packages/components/package-open-page'),
    (m) => m.PackageOpenPage,
  ),
  '/*': home,
} as const satisfies Record<RoutePath, RouteObject['lazy']>;
