/**
 * Paging of the package lists (docs/decisions/050-package-list-paging.md), in a module without zod so
 * the SPA's first screen can use it without loading the schemas.
 */

/** Largest page of a paged package list: about 2 MB of answer, far below Lambda's 6 MB. */
export const PACKAGE_PAGE_MAX = 1000;
/** Page size when a client sends a cursor without a limit. */
export const PACKAGE_PAGE_DEFAULT = 100;
