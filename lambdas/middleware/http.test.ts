import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PasskeyProof } from '../../shared/api/contracts/passkeys';
import type { RouteId } from '../../shared/api/routes';
import { API_ERR } from '../../shared/messages';
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
      password?: string | undefined;
      reauthTicket?: string | undefined;
      passkey?: PasskeyProof | undefined;
      changesSeen?: string | undefined;
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

  it('refuses a call without CloudFront’s origin secret when the origin check is required (AWS)', async () => {
    const { handler } = await import('../handlers/openapi');
    const event = (headers: Record<string, string>) =>
      ({
        httpMethod: 'GET',
        path: '/openapi.json',
        headers,
        body: null,
        isBase64Encoded: false,
        pathParameters: null,
        queryStringParameters: null,
        requestContext: { identity: { sourceIp: '203.0.113.9' } },
      }) as unknown as APIGatewayProxyEvent;
    const saved = { ...process.env };
    Object.assign(process.env, {
      ORIGIN_VERIFY_REQUIRED: 'true',
      ORIGIN_VERIFY_SECRET: 'origin-secret-http-test',
    });
    try {
      const attempts: Record<string, string>[] = [{}, { 'X-Frp-Origin-Verify': 'guessed' }];
      for (const headers of attempts) {
        const res = await handler(event(headers), { awsRequestId: 'req-2' } as Context);
        expect(res.statusCode).toBe(403);
        expect(JSON.parse(res.body)).toEqual({ errorMessage: API_ERR.notThroughPortal });
        expect(res.headers?.['X-Content-Type-Options']).toBe('nosniff');
      }
      const ok = await handler(event({ 'x-frp-origin-verify': 'origin-secret-http-test' }), {
        awsRequestId: 'req-3',
      } as Context);
      expect(ok.statusCode).toBe(200);
    } finally {
      process.env = saved;
    }
  });
});
