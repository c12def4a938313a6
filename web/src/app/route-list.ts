import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '@/components/layouts/use-route-tab';
import { withTimeout } from '@/lib/lazy-with-timeout';

/**
 * A lazily loaded screen (its own chunk: the login page does not pull the rest). The import runs only
 * when the route is first visited, so this list may name every screen without loading any.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return withTimeout(async () => ({ Component: pick(await load()) }));
}

/**
 * Who may open a route, as the guard that runs before it (lib/session/guards.ts, spec §2.2, §2.3):
 * `any` public pages, `anonymous` only signed-out visitors, `user` the ordinary signed-in layout
 * (no admin), `admin` the admin layout.
 */
export type RouteAccess = 'any' | 'anonymous' | 'user' | 'admin';

/** One screen of the SPA: the router and the path builders (`paths`) both come from these rows. */
export interface RouteRow {
  /** the name in `paths`: `home` → paths.home, `packages.header` → paths.packages.header; none for `*` */
  name?: string;
  /** the full path; `/*` and `/admin/*` catch the unknown paths of their layout */
  path: string;
  access: RouteAccess;
  screen: RouteObject['lazy'];
  /** the navigation tab the page selects (null clears it, absent keeps the one the user came from) */
  tab?: RouteHandle['tab'];
  /** what the page is (its heading); '' where it shows the session's subHeader (set by /patches, /models) */
  title?: string;
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
export const ROUTE_LIST = [
  // public pages (PublicLayout)
  {
    name: 'login',
    path: '/login',
    access: 'any',
    screen: page(
      () => import('@/features/auth/components/login-form'),
      (m) => m.LoginForm,
    ),
  },
  {
    // where the company's identity provider sends the browser back (decision 315); also a confirmation popup
    name: 'companyCallback',
    path: '/login/company',
    access: 'any',
    screen: page(
      () => import('@/features/auth/components/company-callback-page'),
      (m) => m.CompanyCallbackPage,
    ),
  },
  {
    name: 'register',
    path: '/register',
    access: 'any',
    screen: page(
      () => import('@/features/auth/components/register-form'),
      (m) => m.RegisterForm,
    ),
  },
  {
    name: 'resetPassword',
    path: '/user/reset-password',
    access: 'anonymous',
    screen: page(
      () => import('@/features/auth/components/reset-password-form'),
      (m) => m.ResetPasswordForm,
    ),
  },
  {
    // the link of the confirmation mail: anyone may open it
    name: 'confirmEmail',
    path: '/user/confirm-email',
    access: 'any',
    screen: page(
      () => import('@/features/auth/components/confirm-email-page'),
      (m) => m.ConfirmEmailPage,
    ),
  },

  // the admin layout
  { name: 'admin.home', path: '/admin', access: 'admin', screen: adminHome, tab: null },
  {
    name: 'admin.packages',
    path: '/admin/packages',
    access: 'admin',
    screen: admin((m) => m.AdminPackagesPage),
    tab: 'admin-packages',
  },
  {
    name: 'admin.dcc',
    path: '/admin/dcc',
    access: 'admin',
    screen: admin((m) => m.AdminDccPage),
    tab: 'admin-dcc',
  },
  {
    name: 'admin.users',
    path: '/admin/users',
    access: 'admin',
    screen: admin((m) => m.AdminUsersPage),
    tab: 'admin-users',
  },
  {
    name: 'admin.resources',
    path: '/admin/resources',
    access: 'admin',
    screen: admin((m) => m.AdminResourcesPage),
    tab: 'admin-resources',
  },
  {
    // every subject's audit events, filtered and exported (decisions 346–348)
    name: 'admin.audit',
    path: '/admin/audit',
    access: 'admin',
    screen: page(
      () => import('@/features/admin/components/audit-trail-page'),
      (m) => m.AuditTrailPage,
    ),
    tab: 'admin-audit',
    title: 'Audit trail',
  },
  // the admin's own name, email and password; the role is not theirs to change
  { name: 'admin.settings', path: '/admin/settings', access: 'admin', screen: settings, tab: null },
  // spec §2.3: unknown paths under the admin area show the admin home page
  { path: '/admin/*', access: 'admin', screen: adminHome, tab: null },

  // the ordinary signed-in layout
  { name: 'root', path: '/', access: 'user', screen: home, tab: null },
  { name: 'home', path: '/home', access: 'user', screen: home, tab: null },
  { name: 'settings', path: '/user/settings', access: 'user', screen: settings, tab: null },
  {
    name: 'patches',
    path: '/patches',
    access: 'user',
    screen: resources((m) => m.PatchesPage),
    tab: 'patches',
  },
  { name: 'models', path: '/models', access: 'user', screen: resources((m) => m.ModelsPage), tab: 'models' },
  {
    name: 'upload',
    path: '/upload',
    access: 'user',
    screen: page(
      () => import('@/features/upload/components/upload-page'),
      (m) => m.UploadPage,
    ),
    tab: 'upload',
  },
  // the package screens (spec §2.5–§2.9)
  {
    name: 'packages.list',
    path: '/packages',
    access: 'user',
    screen: lists((m) => m.PackagesPage),
    tab: 'packages',
    title: 'Packages',
  },
  {
    name: 'packages.create',
    path: '/packages/create',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/create-package-page'),
      (m) => m.CreatePackagePage,
    ),
    title: '',
  },
  {
    name: 'packages.header',
    path: '/packages/header',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/header-editor-page'),
      (m) => m.HeaderEditorPage,
    ),
    title: 'Edit package header',
  },
  {
    name: 'packages.headerView',
    path: '/packages/header/view',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/header-view-page'),
      (m) => m.HeaderViewPage,
    ),
    title: 'Package header',
  },
  {
    name: 'packages.dcc',
    path: '/packages/dcc',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/dcc-list-page'),
      (m) => m.DccListPage,
    ),
    title: 'Choose a DCC',
  },
  {
    name: 'packages.dccCreate',
    path: '/packages/dcc/create',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/dcc-create-page'),
      (m) => m.DccCreatePage,
    ),
    title: 'Create DCC',
  },
  {
    name: 'packages.approve',
    path: '/packages/approve',
    access: 'user',
    screen: lists((m) => m.ApproveListPage),
    tab: 'approval',
    title: 'Approval',
  },
  {
    name: 'packages.approveView',
    path: '/packages/approve/view',
    access: 'user',
    screen: details((m) => m.ApproveViewPage),
    title: 'Package approval',
  },
  {
    name: 'packages.sign',
    path: '/packages/sign',
    access: 'user',
    screen: lists((m) => m.SignListPage),
    tab: 'signing',
    title: 'Signing',
  },
  {
    name: 'packages.signView',
    path: '/packages/sign/view',
    access: 'user',
    screen: details((m) => m.SignViewPage),
    title: 'Package signing',
  },
  {
    name: 'packages.devView',
    path: '/packages/dev/view',
    access: 'user',
    screen: details((m) => m.DevViewPage),
    title: 'Package details',
  },
  {
    name: 'packages.rejectedView',
    path: '/packages/rejected/view',
    access: 'user',
    screen: details((m) => m.RejectedViewPage),
    title: 'Rejected package',
  },
  {
    name: 'packages.releaseView',
    path: '/packages/release/view',
    access: 'user',
    screen: details((m) => m.ReleaseViewPage),
    title: 'Package details',
  },
  {
    name: 'packages.approvalPendingView',
    path: '/packages/approval-pending/view',
    access: 'user',
    screen: details((m) => m.ApprovalPendingViewPage),
    title: 'Package approval pending',
  },
  {
    name: 'packages.notifyApprovers',
    path: '/packages/notify-approvers',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/notify-approvers-page'),
      (m) => m.NotifyApproversPage,
    ),
    title: 'Notify approvers',
  },
  {
    name: 'packages.download',
    path: '/packages/download',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/download-page'),
      (m) => m.DownloadPage,
    ),
    title: 'Package download',
  },
  {
    // one package by id, the link of every workflow mail (shared/domain/package-link.ts)
    name: 'packages.open',
    path: '/packages/open/:id',
    access: 'user',
    screen: page(
      () => import('@/features/packages/components/package-open-page'),
      (m) => m.PackageOpenPage,
    ),
    title: 'Package',
  },
  // spec §2.2: any unknown path shows the home page
  { path: '/*', access: 'user', screen: home, tab: null },
] as const satisfies readonly RouteRow[];

type Row = (typeof ROUTE_LIST)[number];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type GroupOf<N> = N extends `${infer G}.${string}` ? G : never;

/** The path builders: `paths.home`, `paths.packages.header`, … (the rows' names, nested at the dot). */
export type Paths = Simplify<
  {
    readonly [R in Row as R extends { name: infer N extends string }
      ? N extends `${string}.${string}`
        ? never
        : N
      : never]: R['path'];
  } & {
    readonly [G in GroupOf<Extract<Row, { name: string }>['name']>]: Simplify<{
      readonly [R in Row as R extends { name: `${G}.${infer L}` } ? L : never]: R['path'];
    }>;
  }
>;

/** Builds `paths` from the rows. */
export function pathsOf(rows: readonly RouteRow[]): Paths {
  const out: Record<string, string | Record<string, string>> = {};
  for (const { name, path } of rows) {
    if (!name) continue;
    const [group, leaf] = name.split('.');
    if (group === undefined) continue;
    if (leaf === undefined) out[group] = path;
    else out[group] = { ...(out[group] as Record<string, string> | undefined), [leaf]: path };
  }
  return out as unknown as Paths;
}
