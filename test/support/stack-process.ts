import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../infra/local/ports';

export interface StackProcess {
  url: string;
  mailboxUrl: string;
  /** the local company identity provider's issuer ('' when the stack runs without it) */
  idpUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  dataDir: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Runs infra/local/main.ts (what `npm start` runs after building the SPA) in its own process group, on
 * free ports and a fresh data folder, and waits for its READY line.
 */
export async function startStackProcess(
  extraEnv: Record<string, string> = {},
  dataDir?: string,
): Promise<StackProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'frp-test-'));
  const [port, dynamoPort, s3Port, sesPort, idpPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const root = resolve(import.meta.dirname, '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'infra/local/main.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dir,
      DYNAMODB_PORT: String(dynamoPort),
      S3_PORT: String(s3Port),
      SES_PORT: String(sesPort),
      IDP_PORT: String(idpPort),
      ...extraEnv,
    },
  });
  const output: string[] = [];
  // a start takes seconds, but minutes on a machine many runs share: FRP_STACK_START_SECONDS lifts the limit
  const startSeconds = Number(process.env.FRP_STACK_START_SECONDS ?? 300);
  let mailboxUrl = '';
  let idpUrl = '';
  let ready = false;
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      // a stack that did not come up must not stay behind (its emulators run in its process group)
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      reject(new Error(`local stack did not start in ${startSeconds} s:\n${output.join('')}`));
    }, startSeconds * 1000);
    const onData = (b: Buffer) => {
      const text = b.toString();
      output.push(text);
      const mb = /Mailbox:\s+(\S+)/.exec(text);
      if (mb) mailboxUrl = mb[1]!;
      const idp = /Company IdP:\s+(\S+)/.exec(text);
      if (idp) idpUrl = idp[1]!;
      // until ready only: afterwards every request logs a line, and joining them all for each chunk adds up
      if (!ready && /^READY$/m.test(output.join(''))) {
        ready = true;
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local stack exited with ${code}:\n${output.join('')}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {}
          r();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
        child.kill('SIGTERM');
      });
    }
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  const dynamoEndpoint = `http://127.0.0.1:${dynamoPort}`;
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    mailboxUrl,
    idpUrl,
    dynamoEndpoint,
    s3Endpoint,
    dataDir: dir,
    child,
    output,
    stop,
  };
}
