import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/domain/client-source';
import { clientSource, forgetOriginSecret } from './client-source';

/**
 * Rotating the origin-verify secret without downtime (decision 216): a Secrets Manager stand-in on
 * 127.0.0.1 answers GetSecretValue by staging label, as AWS does after PutSecretValue (the new value is
 * AWSCURRENT, the one before AWSPREVIOUS). The API trusts the viewer address for a request presenting
 * either value; after the previous label is removed (the rotation's end) only the current one.
 */
const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:frp-origin-verify';
const versions: { current: string; previous?: string } = { current: 'origin-value-one-0123456789abcdef' };
let reads = 0;
let server: Server;
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      reads += 1;
      const { VersionStage } = JSON.parse(body) as { VersionStage?: string };
      const value = VersionStage === 'AWSPREVIOUS' ? versions.previous : versions.current;
      res.writeHead(value ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify(
          value
            ? { ARN, Name: 'origin', SecretString: value, VersionStages: [VersionStage] }
            : {
                __type: 'ResourceNotFoundException',
                message:
                  "Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS",
              },
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_MAX_ATTEMPTS: '1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ORIGIN_VERIFY_SECRET_ARN: ARN,
    // no cache: every request may read again, so the test needs no waiting
    ORIGIN_VERIFY_CACHE_SECONDS: '0',
  });
  delete process.env.ORIGIN_VERIFY_SECRET;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

beforeEach(() => {
  forgetOriginSecret();
});

const VIEWER = '198.51.100.7';
const EDGE = '130.176.0.1';
const via = (presented: string | undefined) =>
  clientSource({
    headers: {
      [VIEWER_ADDRESS_HEADER]: `${VIEWER}:4711`,
      ...(presented === undefined ? {} : { [ORIGIN_VERIFY_HEADER]: presented }),
    },
    requestContext: { identity: { sourceIp: EDGE } },
  } as unknown as APIGatewayProxyEvent);

describe('the origin-verify secret across a rotation', () => {
  it('trusts the viewer address with the current value only, before any rotation', async () => {
    const viewer = await via(versions.current);
    const edge = await via('a-forged-value-that-is-long-enough');
    expect(viewer).not.toBe(edge);
    expect(viewer).toContain(VIEWER);
    expect(edge).toContain(EDGE);
    expect(await via(undefined)).toBe(edge);
  });

  it('accepts the previous and the new value while the rotation runs, and only the new one after it', async () => {
    const old = versions.current;
    const viewer = await via(old);
    const edge = await via('a-forged-value-that-is-long-enough');

    // PutSecretValue: the new value is current; CloudFront still sends the old one until the deploy
    versions.previous = old;
    versions.current = 'origin-value-two-fedcba9876543210';
    expect(await via(old)).toBe(viewer);
    // after the deploy CloudFront sends the new one: a warm function that has not read it yet reads again
    expect(await via(versions.current)).toBe(viewer);

    // the rotation ends: the label AWSPREVIOUS is removed
    delete versions.previous;
    expect(await via(old)).toBe(edge);
    expect(await via(versions.current)).toBe(viewer);
    expect(reads).toBeGreaterThan(0);
  });
});
