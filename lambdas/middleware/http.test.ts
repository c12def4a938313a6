import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RouteId } from '../../shared/api/routes';
import type { UserRecord } from '../ports/user-repository';
import type { Input, ReplyOf } from './http';

describe('route(id, fn): the id gives the types', () => {
  it('gives the user on guarded rows, none on public ones', () => {
    expectTypeOf<Input<'approvePackage'>['user']>().toEqualTypeOf<UserRecord>();
    expectTypeOf<Input<'auth'>['user']>().toEqualTypeOf<UserRecord>();
    expectTypeOf<Input<'login'>['user']>().toEqualTypeOf<undefined>();
    expectTypeOf<Input<'openapi'>['user']>().toEqualTypeOf<undefined>();
  });

  it('types the request parts by the contract, and the answer by its response schema', () => {
    expectTypeOf<Input<'listPackages'>['params']>().toEqualTypeOf<{ stage: 'DEV' | 'RELEASE' }>();
    expectTypeOf<Input<'listDcc'>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<Input<'rejectPackage'>['body']>().toEqualTypeOf<{
      'rejection-reason': string;
      password: string;
    }>();
    expectTypeOf<NonNullable<ReplyOf<'logout'>['body']>>().toEqualTypeOf<{ status: 'SIGNED_OUT' }>();
    expectTypeOf<'noSuchRoute'>().not.toExtend<RouteId>();
  });

  it('answers a public row through the whole chain', async () => {
    const { handler } = await import('../handlers/openapi');
    const event = {
      httpMethod: 'GET',
      path: '/openapi.json',
      headers: {},
      body: null,
      isBase64Encoded: false,
      pathParameters: null,
      queryStringParameters: null,
      requestContext: { identity: { sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayProxyEvent;
    const res = await handler(event, { awsRequestId: 'req-1' } as Context);
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['X-Content-Type-Options']).toBe('nosniff');
    expect(JSON.parse(res.body).openapi).toBe('3.1.0');
  });
});
