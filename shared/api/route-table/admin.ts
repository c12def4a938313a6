import * as z from 'zod';
import { idListSchema } from '../contracts/common';
import { adminResourceListQuerySchema, dccListQuerySchema } from '../contracts/list-view';
import { adminListPageQuerySchema, packageDeletionSchema } from '../contracts/packages';
import { answer, done, jsonText } from '../contracts/responses';
import { ADMIN, PKG_READ } from './groups';
import type { Route, RouteRequest } from './types';

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
    // users table) and mails the people waiting on them through the outbox
    uses: {
      tables: ['users', 'packages', 'resources', 'audit', 'outbox'],
      writes: ['users', 'packages', 'resources', 'audit', 'outbox'],
      buckets: { artefacts: ['delete'] },
    },
    summary:
      'Delete packages and their artefacts (packages in flight: signed, with password and reason; a DELIVERED package: signed by two admins, one proposes, a second confirms)',
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

/** Requests of the admin rows (the same lists as the other areas, all of them). */
export const ADMIN_CONTRACT = {
  adminListPackages: { query: adminListPageQuerySchema },
  adminDeletePackages: { body: packageDeletionSchema, statuses: [200, 202] },
  adminListDcc: { query: dccListQuerySchema },
  adminDeleteDcc: { body: idListSchema },
  adminListResources: { query: adminResourceListQuerySchema },
  adminDeleteResources: { body: idListSchema },
} as const satisfies { [Id in (typeof ADMIN_ROUTES)[number]['id']]: RouteRequest };

const deleted = done('DELETED');

/** Answers of the admin rows. */
export const ADMIN_RESPONSES = {
  adminListPackages: answer({
    packages: jsonText('the packages (Package[])'),
    nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
    total: z.number().optional().meta({
      description: 'with offset, search or sort: how many packages the search matched (decision 210)',
    }),
  }),
  adminDeletePackages: z.union([done('DELETED'), done('PROPOSED')]),
  adminListDcc: answer({
    dcc: jsonText('the DCCs (Dcc[])'),
    total: z.number().optional().meta({
      description: 'with offset, limit, search or sort: how many rows the search matched (decision 221)',
    }),
  }),
  adminDeleteDcc: deleted,
  adminListResources: answer({
    resources: jsonText('the resources (Resource[])'),
    total: z.number().optional().meta({
      description: 'with offset, limit, search or sort: how many rows the search matched (decision 221)',
    }),
  }),
  adminDeleteResources: deleted,
} as const satisfies { [Id in (typeof ADMIN_ROUTES)[number]['id']]: z.ZodType };
