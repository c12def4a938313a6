/**
 * The SPA's deep link to one package: every workflow mail links here, and the web route list
 * (web/src/config/routes.ts, `packages.open`) serves it. The id is URL-encoded: ids are the server's,
 * but a link is text in a mail.
 */
export const PACKAGE_LINK_BASE = '/packages/open';

/** The path of one package's deep link, e.g. /packages/open/0b0e… */
export function packageLinkPath(id: string): string {
  return `${PACKAGE_LINK_BASE}/${encodeURIComponent(id)}`;
}
