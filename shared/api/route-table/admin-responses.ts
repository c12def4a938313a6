import * as z from 'zod';
import { answer, done, jsonText } from '../contracts/responses';
import type { ADMIN_ROUTES } from './admin';

const deleted = done('DELETED');

/** Answers of the admin rows (shared/api/contract.ts joins them with the requests of admin-contract.ts). */
export const ADMIN_RESPONSES = {
  adminListPackages: answer({
    packages: jsonText('the packages (Package[])'),
    nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
    total: z.number().optional().meta({
      description: 'with offset, search or sort: how many packages the search matched (decision 210)',
    }),
  }),
  adminDeletePackages: deleted,
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
