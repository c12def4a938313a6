import { type LoaderFunctionArgs, redirect } from 'react-router-dom';
import { paths } from '@/config/paths';
import { awaitsGrant, session } from './session-store';

/** The login URL for an anonymous visitor, remembering the page they asked for (e.g. a mail link). */
function loginFor(request: Request | undefined): string {
  if (!request) return paths.login;
  const url = new URL(request.url);
  return loginPathFrom(url.pathname, url.search);
}

/** /login, with `next` the page to come back to after sign-in (none for the home page). */
export function loginPathFrom(pathname: string, search = ''): string {
  if (pathname === paths.home || pathname === '/' || !safeNextPath(pathname + search)) return paths.login;
  return `${paths.login}?next=${encodeURIComponent(pathname + search)}`;
}

/**
 * The page to open after sign-in (a mail's deep link kept through /login?next=…): only a path of this
 * site, never another origin (no open redirect: `//host`, `/\host`, `https:…`, control characters and
 * anything that resolves elsewhere are refused), and never a page of the sign-in itself.
 */
export function safeNextPath(next: string | null, origin = window.location.origin): string | null {
  if (!next?.startsWith('/') || next.startsWith('//')) return null;
  // browsers read a backslash as a slash, and drop tabs and newlines, inside a URL
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if ([paths.login, paths.register, paths.resetPassword].some((p) => p === url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The settings page a user is held on, or null when they may go anywhere of their layout. */
export function heldOn(admin: boolean): string | null {
  const s = session.get();
  const settings = admin ? paths.admin.settings : paths.settings;
  if (s.mustChangePassword) return `${settings}?form=password&first=1`;
  if (!admin && awaitsGrant(s.user)) return settings;
  return null;
}

/** Redirects to the held-on settings page unless the request is for it already. */
function holdOnSettings(admin: boolean, request: Request | undefined): void {
  const target = heldOn(admin);
  if (!target) return;
  const here = request ? new URL(request.url).pathname : '';
  if (here !== target.split('?')[0]) throw redirect(target);
}

/**
 * Route guards (spec §2.2, §2.3): loaders that run before a layout renders, after the session was
 * restored (`ready`).
 */
export function makeGuards(ready: () => Promise<void>) {
  return {
    /** The ordinary signed-in layout: anonymous → /login, admin → /admin. */
    async user(args?: LoaderFunctionArgs) {
      await ready();
      const s = session.get();
      if (!s.isAuthenticated) throw redirect(loginFor(args?.request));
      if (s.admin) throw redirect(paths.admin.home);
      // a password to change, or a role not granted yet: the settings page only
      holdOnSettings(false, args?.request);
      return null;
    },
    /** The admin layout: anonymous → /login, non-admin → /home. */
    async admin(args?: LoaderFunctionArgs) {
      await ready();
      const s = session.get();
      if (!s.isAuthenticated) throw redirect(paths.login);
      if (!s.admin) throw redirect(paths.home);
      holdOnSettings(true, args?.request);
      return null;
    },
    /** The reset-password page: a signed-in user goes to /home. */
    async anonymous() {
      await ready();
      if (session.get().isAuthenticated) throw redirect(paths.home);
      return null;
    },
    /** Public pages that anyone may see. */
    async any() {
      await ready();
      return null;
    },
  };
}

export type Guards = ReturnType<typeof makeGuards>;
