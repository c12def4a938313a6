import { ADMIN, PKG_READ } from './groups';
import type { Route } from './types';

/** The admin screens' lists and deletions (users are in identity.ts). */
export const ADMIN_ROUTES = [
  {
    id: 'adminListPackages',
    method: 'GET',
    path: '/admin/packages',
    access: ADMIN,
    uses: { tables: PKG_READ },
    summary: 'All packages',
  },
  {
    id: 'adminDeletePackages',
    method: 'DELETE',
    path: '/admin/packages',
    access: ADMIN,
    // a deletion of packages in flight is signed (the password check with the sign-in throttle, in the
    // users table) and mails the people waiting on them through the outbox (issue 23)
    uses: {
      tables: ['users', 'packages', 'resources', 'audit', 'outbox'],
      writes: ['users', 'packages', 'resources', 'audit', 'outbox'],
      buckets: { artefacts: ['delete'] },
    },
    summary: 'Delete packages and their artefacts (packages in flight: signed, with password and reason)',
  },
  {
    id: 'adminListDcc',
    method: 'GET',
    path: '/admin/dcc',
    access: ADMIN,
    uses: { tables: ['users', 'dcc'] },
    summary: 'All DCCs',
  },
  {
    id: 'adminDeleteDcc',
    method: 'DELETE',
    path: '/admin/dcc',
    access: ADMIN,
    uses: { tables: ['users', 'dcc', 'packages', 'audit'] },
    summary: 'Delete DCCs',
  },
  {
    id: 'adminListResources',
    method: 'GET',
    path: '/admin/resources',
    access: ADMIN,
    uses: { tables: ['users', 'resources'] },
    summary: 'All resources',
  },
  {
    id: 'adminDeleteResources',
    method: 'DELETE',
    path: '/admin/resources',
    access: ADMIN,
    uses: { tables: ['users', 'resources', 'packages', 'audit'], buckets: { resources: ['delete'] } },
    summary: 'Delete resources and their files',
  },
] as const satisfies readonly Route[];
