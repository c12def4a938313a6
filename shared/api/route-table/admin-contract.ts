import * as z from 'zod';
import { idListSchema } from '../contracts/common';
import { listPageQuerySchema } from '../contracts/packages';
import { answer, done, jsonText } from '../contracts/responses';
import type { ADMIN_ROUTES } from './admin';
import type { RouteContract } from './types';

const remove = { body: idListSchema, response: done('DELETED') } as const;

/** Requests and answers of the admin rows (the same lists as the other areas, all of them). */
export const ADMIN_CONTRACT = {
  adminListPackages: {
    query: listPageQuerySchema,
    response: answer({
      packages: jsonText('the packages (Package[])'),
      nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
    }),
  },
  adminDeletePackages: remove,
  adminListDcc: { response: answer({ dcc: jsonText('the DCCs (Dcc[])') }) },
  adminDeleteDcc: remove,
  adminListResources: { response: answer({ resources: jsonText('the resources (Resource[])') }) },
  adminDeleteResources: remove,
} as const satisfies { [Id in (typeof ADMIN_ROUTES)[number]['id']]: RouteContract };
