import { AsyncLocalStorage } from 'node:async_hooks';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_CONTRACT, IDENTITY_ROUTES } from '../../shared/api/route-table/identity';
import { ConflictError, UnauthorizedError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import { logger, nameFunctionsBy } from '../observability/logger';
import type { UserRecord } from '../ports/user-repository';
import { routesOf } from './http';
import { outcomeOf } from './logging';

/**
 * The logging middleware in the real route() chain (with a stand-in for the identity service's token
 * check): the Powertools Logger writes JSON lines to process.stdout/stderr, which the tests capture.
 */
const TOKEN = 'secret-token-abc123';
const OLD = 'Old-Passw0rd!xyz';
const NEW = 'New-Passw0rd!xyz';

const user = {
  id: 'user-42',
  name: 'Dana',
  email: 'dana@example.com',
  userRole: 'DESIGN_ENGINEER_DEV',
  passwordHash: 'scrypt$hash',
  tokenVersion: 1,
  emailConfirmed: true,
  roleStatus: 'GRANTED',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
} satisfies UserRecord;

const authenticate = async (token: string | null): Promise<UserRecord> => {
  if (token !== TOKEN) throw new UnauthorizedError(API_ERR.invalidToken);
  return user;
};

const event = (token: string | null): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/dev/user/password',
    headers: {
      'content-type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ oldPassword: OLD, newPassword: NEW }),
    isBase64Encoded: false,
    requestContext: { identity: { sourceIp: '127.0.0.1' } },
  }) as unknown as APIGatewayProxyEvent;

const context = (requestId: string): Context =>
  ({
    awsRequestId: requestId,
    functionName: 'changePassword',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:changePassword',
    memoryLimitInMB: '1024',
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as Context;

const handlerThat = (fn: () => Promise<void>) =>
  routesOf(
    IDENTITY_ROUTES,
    IDENTITY_CONTRACT,
    authenticate,
  )('changePassword', async () => {
    logger().info('changing the password');
    await fn();
    return { body: { status: 'UPDATED' as const, message: 'done', token: 'not-a-token' } };
  });

let written: string[] = [];
beforeEach(() => {
  written = [];
  const capture = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The JSON lines the logger wrote (one object a line). */
const lines = () =>
  written
    .join('')
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const endLine = () => lines().find((l) => l.message === 'request')!;

describe('logging middleware', () => {
  it('adds request id, route id and user id to every line, and ends with one line giving the outcome', async () => {
    const r = await handlerThat(async () => {})(event(TOKEN), context('req-ok-1'));
    expect(r.statusCode).toBe(200);
    const inside = lines().find((l) => l.message === 'changing the password');
    expect(inside).toMatchObject({
      level: 'INFO',
      service: 'changePassword',
      requestId: 'req-ok-1',
      route: 'changePassword',
      userId: 'user-42',
      function_request_id: 'req-ok-1',
    });
    expect(endLine()).toMatchObject({
      requestId: 'req-ok-1',
      route: 'changePassword',
      method: 'POST',
      userId: 'user-42',
      statusCode: 200,
      outcome: 'ok',
    });
    expect(typeof endLine().durationMs).toBe('number');
    expect(lines().filter((l) => l.message === 'request')).toHaveLength(1);
  });

  it('logs a refusal with its status code and no user id before authorize let the caller in', async () => {
    const r = await handlerThat(async () => {})(event('forged'), context('req-401'));
    expect(r.statusCode).toBe(401);
    expect(endLine()).toMatchObject({ requestId: 'req-401', statusCode: 401, outcome: 'refused' });
    expect(endLine()).not.toHaveProperty('userId');
  });

  it('does not carry the user id of one request into the next', async () => {
    await handlerThat(async () => {})(event(TOKEN), context('req-a'));
    written = [];
    await handlerThat(async () => {})(event(null), context('req-b'));
    expect(lines().every((l) => !('userId' in l))).toBe(true);
    expect(endLine()).toMatchObject({ requestId: 'req-b', statusCode: 401 });
  });

  it('logs a typed error as refused (4xx) with the status the error mapper chose', async () => {
    const r = await handlerThat(async () => {
      throw new ConflictError('Package already exists');
    })(event(TOKEN), context('req-409'));
    expect(r.statusCode).toBe(409);
    expect(endLine()).toMatchObject({ statusCode: 409, outcome: 'refused', userId: 'user-42' });
  });

  it('logs an unexpected error with its stack, which never reaches the response', async () => {
    const r = await handlerThat(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    })(event(TOKEN), context('req-500'));
    expect(r.statusCode).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ errorMessage: `${API_ERR.internal} (request req-500)` });
    expect(r.body).not.toMatch(/reading 'id'|at \S+ \(|\.ts:\d+/);
    const error = lines().find((l) => l.message === 'unexpected error')!;
    expect(error).toMatchObject({
      level: 'ERROR',
      requestId: 'req-500',
      route: 'changePassword',
      userId: 'user-42',
    });
    const logged = error.error as { name: string; message: string; stack: string };
    expect(logged.name).toBe('TypeError');
    expect(logged.stack).toContain('logging.test.ts');
    expect(endLine()).toMatchObject({ requestId: 'req-500', statusCode: 500, outcome: 'failed' });
  });

  it('never writes the token, the passwords or the request body', async () => {
    await handlerThat(async () => {})(event(TOKEN), context('req-s1'));
    await handlerThat(async () => {
      throw new Error('boom');
    })(event(TOKEN), context('req-s2'));
    const all = written.join('');
    expect(all).toContain('req-s1');
    expect(all).toContain('req-s2');
    for (const secret of [TOKEN, OLD, NEW, 'oldPassword', 'scrypt$hash']) expect(all).not.toContain(secret);
  });

  it('names the outcome of a status code', () => {
    expect([200, 201, 302, 400, 404, 429, 500, 503, undefined].map(outcomeOf)).toEqual([
      'ok',
      'ok',
      'ok',
      'refused',
      'refused',
      'refused',
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('names the function that wrote each line when one process runs several (the local stack)', async () => {
    const scope = new AsyncLocalStorage<string>();
    nameFunctionsBy(() => scope.getStore());
    try {
      await scope.run('changePassword', () => handlerThat(async () => {})(event(TOKEN), context('req-a')));
      scope.run('generateArtefact', () => logger().info('building the artefact'));
      scope.run('verifyUpload', () => logger().info('hashing the upload'));
    } finally {
      nameFunctionsBy(undefined);
    }
    const by = (message: string) => lines().find((l) => l.message === message)?.service;
    expect(by('changing the password')).toBe('changePassword');
    expect(by('request')).toBe('changePassword');
    expect(by('building the artefact')).toBe('generateArtefact');
    expect(by('hashing the upload')).toBe('verifyUpload');
  });
});
