import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as z from 'zod';
import { BadRequestError } from '../../shared/domain/errors';
import type { ApiEvent, RequestSchemas } from './api-event';

/** The first problem of a failed parse, in words: "email: Please provide a valid email". */
export function describeIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${where}`;
  // Messages written for users (spec §5) stand alone; zod's generic ones get the field name in front.
  const field = issue.path.join('.');
  const custom = issue.message && !/^(Invalid|Expected|Too|Unrecognized)/.test(issue.message);
  if (custom || !field) return issue.message;
  return `${field}: ${issue.message}`;
}

function check<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T | undefined {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw new BadRequestError(describeIssue(r.error, where));
  return r.data;
}

/** Validates path, query and body against the route's shared zod contract before the handler runs. */
export function validate(
  schemas: RequestSchemas,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const event = request.event as ApiEvent;
      const params = check(schemas.params, event.pathParameters ?? {}, 'path');
      const query = check(schemas.query, event.queryStringParameters ?? {}, 'query');
      const body = schemas.raw
        ? undefined
        : check(schemas.body, event.jsonBody ?? (schemas.body ? {} : undefined), 'body');
      event.input = { body, query, params };
    },
  };
}
