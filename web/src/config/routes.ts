import type { NavTab } from '@/lib/session/session-store';

/**
 * Who may open a route, as the guard that runs before it (lib/session/guards.ts, spec §2.2, §2.3):
 * `any` public pages, `anonymous` only signed-out visitors, `user` the ordinary signed-in layout
 * (no admin), `admin` the admin layout.
 */
export type RouteAccess = 'any' | 'anonymous' | 'user' | 'admin';

/**
 * One screen of the SPA, without its component: the path builders (`paths`) come from these rows, and the
 * router (app/route-screens.ts) joins each row to its lazily loaded screen by path. The rows import no
 * screen, so a screen may import `paths` without closing an import circle.
 */
export interface RouteRow {
  /** the name in `paths`: `home` → paths.home, `packages.header` → paths.packages.header; none for `*` */
  name?: string;
  /** the full path; `/*` and `/admin/*` catch the unknown paths of their layout */
  path: string;
  access: RouteAccess;
  /** the navigation tab the page selects (null clears it, absent keeps the one the user came from) */
  tab?: NavTab | null;
  /** what the page is (its heading); '' where it shows the session's subHeader (set by /patches, /models) */
  title?: string;
}

/** Every screen of the app (spec §2), in one place. */
export const ROUTE_LIST = [
  // public pages (PublicLayout)
  {
    name: 'login',
    path: '/login',
    access: 'any',
  },
  {
    // where the company's identity provider sends the browser back (decision 315); also a confirmation popup
    name: 'companyCallback',
    path: '/login/company',
    access: 'any',
  },
  {
    name: 'register',
    path: '/register',
    access: 'any',
  },
  {
    name: 'resetPassword',
    path: '/user/reset-password',
    access: 'anonymous',
  },
  {
    // the link of the confirmation mail: anyone may open it
    name: 'confirmEmail',
    path: '/user/confirm-email',
    access: 'any',
  },

  // the admin layout
  { name: 'admin.home', path: '/admin', access: 'admin', tab: null },
  {
    name: 'admin.packages',
    path: '/admin/packages',
    access: 'admin',
    tab: 'admin-packages',
  },
  {
    name: 'admin.dcc',
    path: '/admin/dcc',
    access: 'admin',
    tab: 'admin-dcc',
  },
  {
    name: 'admin.users',
    path: '/admin/users',
    access: 'admin',
    tab: 'admin-users',
  },
  {
    name: 'admin.resources',
    path: '/admin/resources',
    access: 'admin',
    tab: 'admin-resources',
  },
  {
    // every subject's audit events, filtered and exported (decisions 346–348)
    name: 'admin.audit',
    path: '/admin/audit',
    access: 'admin',
    tab: 'admin-audit',
    title: 'Audit trail',
  },
  // the admin's own name, email and password; the role is not theirs to change
  { name: 'admin.settings', path: '/admin/settings', access: 'admin', tab: null },
  // spec §2.3: unknown paths under the admin area show the admin home page
  { path: '/admin/*', access: 'admin', tab: null },

  // the ordinary signed-in layout
  { name: 'root', path: '/', access: 'user', tab: null },
  { name: 'home', path: '/home', access: 'user', tab: null },
  { name: 'settings', path: '/user/settings', access: 'user', tab: null },
  {
    name: 'patches',
    path: '/patches',
    access: 'user',
    tab: 'patches',
  },
  { name: 'models', path: '/models', access: 'user', tab: 'models' },
  {
    name: 'upload',
    path: '/upload',
    access: 'user',
    tab: 'upload',
  },
  // the package screens (spec §2.5–§2.9)
  {
    name: 'packages.list',
    path: '/packages',
    access: 'user',
    tab: 'packages',
    title: 'Packages',
  },
  {
    name: 'packages.create',
    path: '/packages/create',
    access: 'user',
    title: '',
  },
  {
    name: 'packages.header',
    path: '/packages/header',
    access: 'user',
    title: 'Edit package header',
  },
  {
    name: 'packages.headerView',
    path: '/packages/header/view',
    access: 'user',
    title: 'Package header',
  },
  {
    name: 'packages.dcc',
    path: '/packages/dcc',
    access: 'user',
    title: 'Choose a DCC',
  },
  {
    name: 'packages.dccCreate',
    path: '/packages/dcc/create',
    access: 'user',
    title: 'Create DCC',
  },
  {
    name: 'packages.approve',
    path: '/packages/approve',
    access: 'user',
    tab: 'approval',
    title: 'Approval',
  },
  {
    name: 'packages.approveView',
    path: '/packages/approve/view',
    access: 'user',
    title: 'Package approval',
  },
  {
    name: 'packages.sign',
    path: '/packages/sign',
    access: 'user',
    tab: 'signing',
    title: 'Signing',
  },
  {
    name: 'packages.signView',
    path: '/packages/sign/view',
    access: 'user',
    title: 'Package signing',
  },
  {
    name: 'packages.devView',
    path: '/packages/dev/view',
    access: 'user',
    title: 'Package details',
  },
  {
    name: 'packages.rejectedView',
    path: '/packages/rejected/view',
    access: 'user',
    title: 'Rejected package',
  },
  {
    name: 'packages.releaseView',
    path: '/packages/release/view',
    access: 'user',
    title: 'Package details',
  },
  {
    name: 'packages.approvalPendingView',
    path: '/packages/approval-pending/view',
    access: 'user',
    title: 'Package approval pending',
  },
  {
    name: 'packages.notifyApprovers',
    path: '/packages/notify-approvers',
    access: 'user',
    title: 'Notify approvers',
  },
  {
    name: 'packages.download',
    path: '/packages/download',
    access: 'user',
    title: 'Package download',
  },
  {
    // one package by id, the link of every workflow mail (shared/domain/package-link.ts)
    name: 'packages.open',
    path: '/packages/open/:id',
    access: 'user',
    title: 'Package',
  },
  // spec §2.2: any unknown path shows the home page
  { path: '/*', access: 'user', tab: null },
] as const satisfies readonly RouteRow[];

/** A path of the list: the router has one screen for each (app/route-screens.ts). */
export type RoutePath = (typeof ROUTE_LIST)[number]['path'];

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
