import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { handlerFile, ROUTES } from '../../shared/api/routes';
import { ASYNC_WORKERS, WORKERS, workerFile } from '../../shared/api/workers';
import {
  asInvocation,
  asRouteInvocation,
  CRASH_HEADER,
  CRASH_SEAM_ENV,
  CrashSeamKill,
  crashPointOf,
  crashSeamControl,
  installCrashSeam,
  onStorageCall,
} from './crash-seam';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('the crash seam is never in a Lambda bundle', () => {
  const entries = [
    ...ROUTES.map((r) => join(ROOT, 'lambdas', 'handlers', `${handlerFile(r.id)}.ts`)),
    ...[...WORKERS, ...ASYNC_WORKERS, ...ASYNC_WORKERS.map((w) => w.failure)].map((w) =>
      join(ROOT, 'lambdas', 'workers', `${workerFile(w.id)}.ts`),
    ),
  ];
  const bundles = new Map<string, { inputs: string[]; text: string }>();
  // project files only (npm packages external): the seam is a project file, so this is where it would be
  beforeAll(async () => {
    await Promise.all(
      entries.map(async (entry) => {
        const r = await build({
          entryPoints: [entry],
          bundle: true,
          write: false,
          platform: 'node',
          format: 'esm',
          packages: 'external',
          metafile: true,
          logLevel: 'silent',
        });
        bundles.set(entry, {
          inputs: Object.keys(r.metafile.inputs),
          text: r.outputFiles.map((f) => f.text).join('\n'),
        });
      }),
    );
  }, 120_000);

  it('bundles every handler and worker without the seam module or its marker strings', () => {
    expect(bundles.size).toBe(entries.length);
    for (const [entry, b] of bundles) {
      expect(
        b.inputs.filter((i) => i.includes('crash-seam')),
        entry,
      ).toEqual([]);
      for (const marker of [CRASH_SEAM_ENV, CRASH_HEADER, 'CrashSeamKill'])
        expect(b.text.includes(marker), `${entry} contains ${marker}`).toBe(false);
    }
  });
});

describe('the crash seam', () => {
  // the seam on, and the SDK pointed at a port nobody answers (no call here needs a real store)
  const env = {
    [CRASH_SEAM_ENV]: '1',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  beforeAll(() => {
    Object.assign(process.env, env);
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('lets the k-th write complete, then fails every later storage call of that invocation, reads too', async () => {
    const seen: string[] = [];
    const { error, record } = await asInvocation('route:test', 2, async () => {
      for (const [op, write] of [
        ['GetItem', false],
        ['PutItem', true],
        ['UpdateItem', true],
        ['GetItem', false],
        ['DeleteItem', true],
      ] as const) {
        onStorageCall(op, write);
        seen.push(op);
      }
    });
    expect(seen).toEqual(['GetItem', 'PutItem', 'UpdateItem']);
    expect(error).toBeInstanceOf(CrashSeamKill);
    expect(record).toMatchObject({
      crashed: true,
      writes: 2,
      ops: ['r:GetItem', 'w:PutItem', 'w:UpdateItem', 'x:GetItem'],
    });
  });

  it('counts a clean run without ending it, and keeps concurrent invocations apart', async () => {
    const [a, b] = await Promise.all([
      asInvocation('worker:a', null, async () => {
        onStorageCall('PutItem', true);
        await new Promise((r) => setTimeout(r, 5));
        onStorageCall('PutItem', true);
        return 'a';
      }),
      asInvocation('worker:b', 1, async () => {
        onStorageCall('SendEmail', true);
        await new Promise((r) => setTimeout(r, 5));
        onStorageCall('PutItem', true);
      }),
    ]);
    expect(a).toMatchObject({ value: 'a', record: { crashed: false, writes: 2 } });
    expect(b.record).toMatchObject({ crashed: true, writes: 1 });
  });

  it('counts the SDK calls of the shared clients and refuses them before they leave after the crash', async () => {
    installCrashSeam();
    const { record, error } = await asInvocation('route:sdk', 1, async () => {
      // the endpoint answers nothing: the first call fails on the network, counted as the write it was
      await dynamo()
        .send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'x' } } }))
        .catch(() => undefined);
      await dynamo().send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'x' } } }));
    });
    expect(record.ops).toEqual(['w:PutItemCommand', 'x:GetItemCommand']);
    expect(error).toBeInstanceOf(CrashSeamKill);
  }, 30_000);

  it('reads the crash point from the request and hides it from the handler', async () => {
    expect(crashPointOf({ 'X-FRP-Crash-Seam-After': '3' })).toBe(3);
    expect(crashPointOf({ [CRASH_HEADER]: '0' })).toBeNull();
    const event = {
      headers: { [CRASH_HEADER]: '1', accept: 'x' } as Record<string, string | undefined>,
      multiValueHeaders: { [CRASH_HEADER]: ['1'], accept: ['x'] } as Record<string, string[] | undefined>,
    };
    let given: typeof event | undefined;
    await expect(
      asRouteInvocation('approvePackage', event, async (e) => {
        given = e;
        onStorageCall('UpdateItem', true);
        onStorageCall('PutItem', true);
        return 'answered';
      }),
    ).rejects.toBeInstanceOf(CrashSeamKill);
    expect(given?.headers).toEqual({ accept: 'x' });
    expect(given?.multiValueHeaders).toEqual({ accept: ['x'] });
  });

  it('arms the next invocations of a target through its control routes, and lists what ran', async () => {
    const server: Server = createServer((req, res) => {
      void crashSeamControl(req, res, new URL(req.url ?? '/', 'http://x')).then((done) => {
        if (!done) res.writeHead(418).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/__crash-seam`;
    try {
      const armed = await fetch(`${base}/arm`, {
        method: 'POST',
        body: JSON.stringify({ target: 'worker:mailOutbox', after: 1, times: 1 }),
      });
      expect(armed.status).toBe(200);
      const since = ((await (await fetch(`${base}/invocations`)).json()) as { last: number }).last;
      const first = await asInvocation('worker:mailOutbox', null, async () =>
        onStorageCall('SendEmail', true),
      );
      const second = await asInvocation('worker:mailOutbox', null, async () =>
        onStorageCall('SendEmail', true),
      );
      expect([first.record.crashed, second.record.crashed]).toEqual([true, false]);
      const listed = (await (await fetch(`${base}/invocations?since=${since}`)).json()) as {
        invocations: { target: string; crashAfter: number | null }[];
      };
      expect(listed.invocations.map((i) => [i.target, i.crashAfter])).toEqual([
        ['worker:mailOutbox', 1],
        ['worker:mailOutbox', null],
      ]);
      expect((await fetch(`${base}/arm`, { method: 'POST', body: '{"target":"x","after":0}' })).status).toBe(
        400,
      );
      expect((await fetch(`${base.replace('__crash-seam', 'dev')}/x`)).status).toBe(418);
    } finally {
      server.close();
    }
  });

  it('does nothing while the stack was started without it', async () => {
    process.env[CRASH_SEAM_ENV] = '0';
    try {
      const { value, record } = await asInvocation('route:off', 1, async () => {
        onStorageCall('PutItem', true);
        onStorageCall('PutItem', true);
        return 'ran';
      });
      expect(value).toBe('ran');
      expect(record.crashed).toBe(false);
    } finally {
      process.env[CRASH_SEAM_ENV] = '1';
    }
  });
});
