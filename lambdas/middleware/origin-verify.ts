import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ORIGIN_VERIFY_REQUIRED_ENV } from '../../shared/domain/client-source';
import { ForbiddenError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import { presentsOriginSecret } from './client-source';

/**
 * Refuses (403, nothing read or changed) a request that did not pass CloudFront: without the origin-verify
 * header carrying the secret CloudFront adds (docs/decisions/208). A direct call to the API Gateway
 * endpoint would otherwise skip the web ACL and its per-address limits. Fails closed: when required and
 * no secret is configured, every request is refused. Runs before the body is parsed and the token checked.
 */
export function originVerify(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      if (process.env[ORIGIN_VERIFY_REQUIRED_ENV] !== 'true') return;
      if (!(await presentsOriginSecret(request.event))) throw new ForbiddenError(API_ERR.notThroughPortal);
    },
  };
}
