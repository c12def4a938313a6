import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import { errorMapper } from './error-mapper';

/** A Lambda context whose deadline is `ms` away, as API Gateway's Lambda (or the local server) gives it. */
const contextWith = (ms: number): Context => {
  const deadline = Date.now() + ms;
  return {
    awsRequestId: 'req-1',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  } as unknown as Context;
};

const run = (fn: () => Promise<APIGatewayProxyResult>, ms = 10_000) =>
  middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>().use(errorMapper()).handler(fn)(
    {} as APIGatewayProxyEvent,
    contextWith(ms),
  );

const bodyOf = (r: APIGatewayProxyResult) => JSON.parse(r.body) as { errorMessage: string };

describe('errorMapper', () => {
  it('answers a handler still running at the Lambda deadline with 504 and says the outcome is unknown', async () => {
    const r = await run(() => new Promise(() => {}), 60);
    expect(r.statusCode).toBe(504);
    expect(bodyOf(r).errorMessage).toBe(API_ERR.timedOut('req-1'));
    expect(bodyOf(r).errorMessage).not.toMatch(/nothing was changed/);
  });

  it('answers an SDK call that timed out (a service not answering) with 503 "nothing was changed"', async () => {
    const r = await run(async () => {
      const e = new Error('socket hang up');
      e.name = 'TimeoutError';
      throw e;
    });
    expect(r.statusCode).toBe(503);
    expect(bodyOf(r).errorMessage).toBe(API_ERR.dependencyDown('req-1'));
  });

  it('answers a refused connection with 503 and no internals', async () => {
    const r = await run(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4569'), { code: 'ECONNREFUSED' });
    });
    expect(r.statusCode).toBe(503);
    expect(r.body).not.toContain('127.0.0.1');
  });

  it('answers a typed error with its status and message', async () => {
    const r = await run(async () => {
      throw new ConflictError('Package already exists');
    });
    expect(r.statusCode).toBe(409);
    expect(bodyOf(r).errorMessage).toBe('Package already exists');
  });

  it('answers anything else with 500, the request id and no stack', async () => {
    const r = await run(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    expect(r.statusCode).toBe(500);
    expect(bodyOf(r).errorMessage).toBe(`${API_ERR.internal} (request req-1)`);
    expect(r.body).not.toMatch(/reading 'id'|at \w+ \(/);
  });
});
