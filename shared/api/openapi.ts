import * as z from 'zod';
import { CONTRACT, type RouteContract } from './contract';
import { API_STAGE, ROUTES } from './routes';

type JsonSchema = Record<string, unknown>;

/** Every refusal and failure: `{ errorMessage, ... }` (the error mapper, lambdas/middleware/error-mapper.ts). */
export const ERROR_BODY = z.looseObject({
  errorMessage: z.string().meta({ description: 'What went wrong, in words for the user' }),
  authError: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); transforms and refinements are left out. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The properties and required names of an object schema (path parameters, query). */
function fields(schema: z.ZodType | undefined): { props: Record<string, JsonSchema>; required: string[] } {
  if (!schema) return { props: {}, required: [] };
  const s = jsonSchema(schema, 'input');
  return {
    props: (s.properties ?? {}) as Record<string, JsonSchema>,
    required: (s.required ?? []) as string[],
  };
}

function parameters(path: string, c: RouteContract): JsonSchema[] {
  const params = fields(c.params);
  const query = fields(c.query);
  return [
    ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: params.props[name!] ?? { type: 'string' },
    })),
    ...Object.entries(query.props).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required.includes(name),
      schema,
    })),
  ];
}

function requestBody(c: RouteContract): JsonSchema | undefined {
  if (c.multipart) {
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['resourceFile'],
            properties: { resourceFile: file, metadataFile: file },
          },
        },
      },
    };
  }
  if (!c.body) return undefined;
  return { required: true, content: { 'application/json': { schema: jsonSchema(c.body, 'input') } } };
}

const ERROR_REF = { $ref: '#/components/responses/Error' };

/**
 * The OpenAPI 3.1 document of the API, generated from the route table (shared/api/routes.ts) and each
 * row's contract (shared/api/contract.ts): one operation per row, its id the route id. Served at
 * GET /dev/openapi.json (lambdas/handlers/openapi.ts); test/unit checks it with an OpenAPI validator.
 */
export function openApiDocument(): { openapi: string } & JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const r of ROUTES) {
    const c: RouteContract = CONTRACT[r.id];
    const ok = { [c.produces ?? 'application/json']: { schema: jsonSchema(c.response, 'output') } };
    const body = requestBody(c);
    const operation: JsonSchema = {
      operationId: r.id,
      summary: r.summary,
      tags: [r.path.split('/')[1] ?? ''],
      security:
        r.access === 'public'
          ? []
          : [{ bearer: [] }, ...('tokenScope' in r ? [{ accessToken: [r.tokenScope] }] : [])],
      'x-access': r.access,
      // the access token scope that may call it; absent: tokens are refused (a person must sign)
      ...('tokenScope' in r ? { 'x-token-scope': r.tokenScope } : {}),
      parameters: parameters(r.path, c),
      ...(body ? { requestBody: body } : {}),
      responses: {
        ...Object.fromEntries(
          (c.statuses ?? [200]).map((s) => [String(s), { description: 'Done', content: ok }]),
        ),
        '4XX': ERROR_REF,
        '5XX': ERROR_REF,
      },
    };
    paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Firmware Release Portal API',
      version: '1',
      description:
        'Every call of the portal. `x-access` names who may call it: public, signedIn or a list of roles. ' +
        'Lists and records travel as JSON text in one field. Every refusal is `{ "errorMessage": ... }`.',
    },
    servers: [{ url: `/${API_STAGE}` }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A session token from POST /user/login',
        },
        // a pipeline's token, sent the same way; each operation lists the scope it needs
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'frp_<id>_<secret>',
          description:
            'An access token made in Settings (POST /access-tokens): Authorization: Bearer frp_…. It acts as ' +
            'its owner within its scopes (resources:upload, packages:draft), and only on the operations whose ' +
            'security names its scope (x-token-scope); every other call refuses it with 403: approvals, ' +
            'rejections, signatures, deliveries, notifications, user and admin calls need a person.',
        },
      },
      schemas: { Error: jsonSchema(ERROR_BODY, 'output') },
      responses: {
        Error: {
          description: 'Refused or failed: the reason in errorMessage',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
