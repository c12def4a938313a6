import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { SECURITY_HEADERS } from '../../shared/api/runtime';
import { AppError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import { logger } from '../observability/logger';

function isDependencyFailure(e: unknown): boolean {
  const err = e as { $metadata?: unknown; code?: string; name?: string; cause?: { code?: string } };
  const codes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'];
  return (
    codes.includes(err?.code ?? '') ||
    codes.includes(err?.cause?.code ?? '') ||
    err?.name === 'TimeoutError' ||
    err?.name === 'ServiceUnavailable' ||
    err?.name === 'ServiceUnavailableException' ||
    err?.name === 'InternalServerError'
  );
}

/** middy's own deadline (Lambda's timeout minus a few ms): the handler was still running */
function isDeadline(e: unknown): boolean {
  const err = e as { name?: string; cause?: { package?: string } };
  return err?.name === 'TimeoutError' && err.cause?.package === '@middy/core';
}

/**
 * Last line of every handler: typed errors become `{ errorMessage, ...extra }` with their status; any
 * other error is logged with the request id and answered with a generic message (no stack, no internals).
 */
export function errorMapper(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const e = request.error;
      const requestId = request.context?.awsRequestId ?? 'unknown';
      let statusCode: number;
      let body: Record<string, unknown>;
      const headers: Record<string, string> = {
        ...SECURITY_HEADERS,
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
      };
      if (e instanceof AppError) {
        statusCode = e.statusCode;
        body = { ...e.extra, errorMessage: e.message };
        if (typeof e.extra.retryAfterSeconds === 'number')
          headers['Retry-After'] = String(e.extra.retryAfterSeconds);
      } else if (isDeadline(e)) {
        // Not "nothing was changed": the work may have committed just before the deadline (or, locally,
        // still be running), so the user is told to look before repeating it.
        logger().error('handler still running at the deadline', {
          requestId,
          kind: 'deadline',
          reason: e?.message,
        });
        statusCode = 504;
        body = { errorMessage: API_ERR.timedOut(requestId) };
      } else if (isDependencyFailure(e)) {
        logger().error('dependency failed', {
          requestId,
          kind: 'dependency',
          name: e?.name,
          reason: e?.message,
        });
        statusCode = 503;
        body = { errorMessage: API_ERR.dependencyDown(requestId) };
      } else {
        // the stack goes to the log only (Powertools writes the error's name, message, location and stack)
        logger().error('unexpected error', { requestId, error: e });
        statusCode = 500;
        body = { errorMessage: `${API_ERR.internal} (request ${requestId})` };
      }
      request.response = { statusCode, headers, body: JSON.stringify(body) };
    },
  };
}
