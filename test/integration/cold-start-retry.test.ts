import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localAwsEnv, localNameEnv } from '../../infra/local/local-aws';
import { createLocalServer } from '../../infra/local/server';
import { routeById } from '../../shared/api/routes';
import { type RawResponse, rawRequest } from '../support/raw-http';

/**
 * A cold start that fails once must not fail forever (decision 092), over HTTP: the real login
 * handler runs in this process (one "container") behind the local gateway, reads the token key from a
 * Secrets Manager stand-in on 127.0.0.1 as in AWS (TOKEN_SECRET_ARN), and the users table of the run's
 * DynamoDB Local. While the stand-in refuses, login fails; once it answers, the next call of the same
 * container works, without a restart.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:frp-token-retry';
let secrets: Server;
let secretsUp = false;
let secretReads = 0;
let gateway: Server;
let gatewayBase: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  secrets = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      secretReads += 1;
      res.writeHead(secretsUp ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify(
          secretsUp
            ? { ARN: SECRET_ARN, Name: 'token', SecretString: 'r'.repeat(64) }
            : { __type: 'ThrottlingException', message: 'Rate exceeded' },
        ),
      );
    });
  });
  await new Promise<void>((r) => secrets.listen(0, '127.0.0.1', r));
  Object.assign(process.env, {
    ...localAwsEnv({ dynamo: inject('dynamoEndpoint') }),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`,
    // no retries inside one call: each invocation reads once, so the test counts reads exactly
    AWS_MAX_ATTEMPTS: '1',
    TOKEN_SECRET_ARN: SECRET_ARN,
    ...localNameEnv(['users', 'audit'], []),
  });
  delete process.env.TOKEN_SECRET;

  gateway = createLocalServer(tmpdir(), [], { routes: [routeById('login')] });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  gatewayBase = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => gateway.close(() => r()));
  await new Promise<void>((r) => secrets.close(() => r()));
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
  Object.assign(process.env, savedEnv);
});

const login = (): Promise<RawResponse> =>
  rawRequest(gatewayBase, {
    method: 'POST',
    path: '/dev/user/login',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: 'nobody-cold-start@example.com', password: 'Not-The-Password-1' }),
  });

describe('a container whose token-key read failed at cold start', () => {
  it('fails while Secrets Manager refuses, and answers normally on the next call once it is back', async () => {
    const first = await login();
    expect(first.status, first.text).toBeGreaterThanOrEqual(500);
    expect(first.text).not.toMatch(/\bat .+\.[jt]s:\d+/);
    const second = await login();
    expect(second.status).toBe(first.status);
    // each failed invocation read the secret again: nothing rejected was kept
    expect(secretReads).toBe(2);

    secretsUp = true;
    const third = await login();
    // the identity service now exists: an unknown account is the login's own 4xx answer
    expect(third.status, third.text).toBeGreaterThanOrEqual(400);
    expect(third.status, third.text).toBeLessThan(500);
    expect(typeof (third.json as { errorMessage?: unknown }).errorMessage).toBe('string');
    expect(secretReads).toBe(3);

    // and is kept: no further reads
    await login();
    expect(secretReads).toBe(3);
  });
});
