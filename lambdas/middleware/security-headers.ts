import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { SECURITY_HEADERS } from '../../shared/api/runtime';

/** Adds the security headers to every successful answer (errors get them from the error mapper). */
export function securityHeaders(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    after: async (request) => {
      if (request.response) request.response.headers = { ...SECURITY_HEADERS, ...request.response.headers };
    },
  };
}
