import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import {
  LOCAL_KEY_SET_FILE,
  newTokenKey,
  parseKeySet,
  serializeKeySet,
} from '../../lambdas/services/token-keys';
import { STAGES } from '../../shared/api/contracts/resources';
import type { BucketName, TableName } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import { WORKERS } from '../../shared/api/workers';
import { SEED_PASSWORD, SEED_USERS } from '../../shared/domain/seed-users';
import { BUCKETS, TABLES } from '../lib/definitions';
import { LocalAsyncInvoker } from './async-invoke';
import { COMPANY_NAME, type CompanyIdp, startCompanyIdp } from './company-idp';
import { type Emulator, PortTakenError, startDynamo, startS3, startSes, stopAll } from './emulators';
import {
  localAwsEnv,
  localBucket,
  localDynamoConfig,
  localEndpointAt,
  localS3Config,
  localTable,
} from './local-aws';
import { ensurePortFree, freePort, listenOn } from './ports';
import { provisionBuckets, provisionTables } from './provision';
import { StreamPoller } from './streams';

export interface LocalStackOptions {
  port: number;
  dataDir: string;
  webRoot: string;
  /** fixed emulator ports (else the defaults when free, or any free port) */
  dynamoPort?: number;
  s3Port?: number;
  sesPort?: number;
  /** the local company identity provider's port (else IDP_PORT, else 8010 when free, else any) */
  idpPort?: number;
  /** the variable that sets `port`, named in the error when the port is taken (default PORT) */
  portVariable?: string;
  log?: (line: string) => void;
}

export interface LocalStack {
  url: string;
  mailboxUrl: string;
  /** the local company identity provider (absent with COMPANY_IDP=off or an external COMPANY_IDP_ISSUER) */
  companyIdp?: { issuer: string; accountsFile: string };
  env: Record<string, string>;
  seeded: boolean;
  stop(): Promise<void>;
}

const envPort = (name: string): number | undefined =>
  process.env[name] ? Number(process.env[name]) : undefined;

/**
 * Starts an emulator on a port it really binds. A port set by its variable is used as it is, and a clash
 * is an error naming the port and the variable. A port picked here (the usual one when free, else any) is
 * picked again when another process took it first: two stacks starting at once each get their own.
 */
async function onOwnPort(
  variable: string,
  fixedPort: number | undefined,
  usual: number,
  start: (port: number) => Promise<Emulator>,
): Promise<Emulator> {
  if (fixedPort !== undefined)
    return start(fixedPort).catch((e: unknown) => {
      if (e instanceof PortTakenError)
        throw new Error(
          `${e.message}. ${variable}=${fixedPort} is set: set ${variable} to a free port, or unset it.`,
        );
      throw e;
    });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(attempt === 1 ? usual : 0);
    try {
      return await start(port);
    } catch (e) {
      if (!(e instanceof PortTakenError) || attempt === 3)
        throw e instanceof PortTakenError ? new Error(`${e.message}. Set ${variable} to a free port.`) : e;
    }
  }
}

/**
 * The local company provider on IDP_PORT (as given: a clash is an error naming it), or on 8010 when free,
 * else on any free port, picked again when another stack took it first.
 */
async function startLocalCompanyIdp(
  dataDir: string,
  appUrl: string,
  fixedPort?: number,
): Promise<CompanyIdp> {
  const start = (port: number) =>
    startCompanyIdp({
      port,
      dir: resolve(dataDir, 'company-idp'),
      redirectUris: [`${appUrl}/login/company`, `${appUrl.replace('localhost', '127.0.0.1')}/login/company`],
    });
  if (fixedPort !== undefined) return start(fixedPort);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(attempt === 1 ? 8010 : 0);
    try {
      return await start(port);
    } catch (e) {
      if (!/is taken/.test((e as Error).message) || attempt === 3) throw e;
    }
  }
}

/**
 * The token key set kept under the data folder (the Secrets Manager secret of AWS; decision 215), created on first start: from the plain secret of a data
 * folder made before key ids (`token-secret`, so its sessions stay valid), else a fresh key.
 */
function persistentKeySet(dataDir: string): string {
  const file = resolve(dataDir, LOCAL_KEY_SET_FILE);
  if (existsSync(file)) return file;
  const legacy = resolve(dataDir, 'token-secret');
  const set = existsSync(legacy)
    ? parseKeySet(readFileSync(legacy, 'utf8'))
    : { keys: [newTokenKey(new Date())] };
  writeFileSync(file, serializeKeySet(set), { mode: 0o600 });
  return file;
}

/**
 * Brings up the emulators, provisions tables and buckets from the shared definitions, sets the
 * environment the handlers read (exactly the variables the CDK stack gives each Lambda), seeds users on
 * an empty data folder and serves the API and the SPA on one port.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const portVariable = opts.portVariable ?? 'PORT';
  // the stack's own port first: a taken one fails now, naming the port and its variable, not after the emulators
  await ensurePortFree(opts.port, portVariable);
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });

  const fixed = {
    dynamo: opts.dynamoPort ?? envPort('DYNAMODB_PORT'),
    s3: opts.s3Port ?? envPort('S3_PORT'),
    ses: opts.sesPort ?? envPort('SES_PORT'),
  };

  const emulators: Emulator[] = [];
  const pollers: StreamPoller[] = [];
  let invoker: LocalAsyncInvoker | undefined;
  let server: Server | undefined;
  let idp: CompanyIdp | undefined;
  const stop = async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server?.closeAllConnections?.();
    await idp?.stop();
    await Promise.all(pollers.map((p) => p.stop()));
    await invoker?.idle();
    invoker?.uninstall();
    await stopAll(emulators);
  };

  try {
    const started = await Promise.allSettled([
      onOwnPort('DYNAMODB_PORT', fixed.dynamo, 8000, (p) => startDynamo(p, dataDir)),
      onOwnPort('S3_PORT', fixed.s3, 4569, (p) => startS3(p, dataDir)),
      onOwnPort('SES_PORT', fixed.ses, 8005, (p) => startSes(p)),
    ]);
    for (const s of started) if (s.status === 'fulfilled') emulators.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const [dynamoPort, s3Port, sesPort] = emulators.map((e) => e.port);
    // Which process serves what: fault-injection tests stop and restart one emulator by its pid.
    writeFileSync(
      resolve(dataDir, 'emulators.json'),
      `${JSON.stringify(
        emulators.map((e) => ({ name: e.name, pid: e.process.pid, port: e.port })),
        null,
        2,
      )}\n`,
    );

    const tables = Object.fromEntries(
      (Object.keys(TABLES) as TableName[]).map((t) => [t, localTable(t)]),
    ) as Record<TableName, string>;
    const buckets = Object.fromEntries(
      (Object.keys(BUCKETS) as BucketName[]).map((b) => [b, localBucket(b)]),
    ) as Record<BucketName, string>;
    const appUrl = `http://localhost:${opts.port}`;

    const env: Record<string, string> = {
      // region, key pair, endpoints and the S3 emulator's folder: the emulator seam (local-aws.ts)
      ...localAwsEnv(
        {
          dynamo: localEndpointAt(dynamoPort!),
          s3: localEndpointAt(s3Port!),
          ses: localEndpointAt(sesPort!),
        },
        dataDir,
      ),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // the deciding routes start generations through the local asynchronous invoker (decision 160)
      LOCAL_ASYNC_INVOKE: 'true',
      MAIL_FROM: 'firmware-portal@example.com',
      APP_URL: appUrl,
      API_STAGE: 'dev',
      // read again after TOKEN_KEYS_CACHE_SECONDS (5 min unless the starting process sets it), as in AWS
      TOKEN_KEYS_FILE: persistentKeySet(dataDir),
      // the release key (the one every package was signed with before the keys were split) and the
      // development key (decision 295), each made on first start
      SIGNING_KEY_FILE: resolve(dataDir, 'signing-key.pem'),
      DEV_SIGNING_KEY_FILE: resolve(dataDir, 'signing-key-dev.pem'),
      // the CDK context's allowedEmailDomains of a laptop; a test may set its own list
      ALLOWED_EMAIL_DOMAINS: process.env.ALLOWED_EMAIL_DOMAINS ?? 'example.com,example.org',
      ...Object.fromEntries(Object.entries(tables).map(([k, v]) => [tableEnv(k as TableName), v])),
      ...Object.fromEntries(Object.entries(buckets).map(([k, v]) => [bucketEnv(k as BucketName), v])),
    };
    // "The company": a real OpenID provider on its own port, unless switched off or one is named (decision 319)
    if (process.env.COMPANY_IDP !== 'off' && !process.env.COMPANY_IDP_ISSUER) {
      idp = await startLocalCompanyIdp(dataDir, appUrl, opts.idpPort ?? envPort('IDP_PORT'));
      Object.assign(env, {
        COMPANY_IDP_ISSUER: idp.issuer,
        COMPANY_IDP_CLIENT_ID: idp.clientId,
        COMPANY_IDP_CLIENT_SECRET: idp.clientSecret,
        COMPANY_IDP_NAME: COMPANY_NAME,
        COMPANY_IDP_EMAIL_DOMAINS: process.env.COMPANY_IDP_EMAIL_DOMAINS ?? 'example.com',
        // the seeded admins stay able to sign in with a password when COMPANY_SIGN_ON_ONLY=true
        BREAK_GLASS_ADMINS: process.env.BREAK_GLASS_ADMINS ?? 'admin@example.com,admin-2@example.com',
      });
    }
    // Tests may tighten or loosen limits through the environment of the process that starts the stack.
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !(k in env)) env[k] = v;
    Object.assign(process.env, env);

    const ddb = new DynamoDBClient(localDynamoConfig(env.AWS_ENDPOINT_URL_DYNAMODB!));
    await provisionTables(ddb, tables);
    const s3 = new S3Client(localS3Config(env.AWS_ENDPOINT_URL_S3!));
    await provisionBuckets(s3, buckets, appUrl);
    // both package keys exist from the first start (decision 295), not from the first signature
    const { FileSigner } = await import('../../lambdas/adapters/local/file-signer');
    for (const stage of STAGES) FileSigner.fromEnv(stage).keyId;

    // Seed only a brand-new data folder: a seeded user an admin deleted stays deleted after a restart.
    const marker = resolve(dataDir, 'seeded');
    let seeded = false;
    if (!existsSync(marker)) {
      const { loadUserService } = await import('../../lambdas/composition');
      const service = await loadUserService();
      await Promise.all(SEED_USERS.map((u) => service.seed(u.name, u.email, u.role, SEED_PASSWORD)));
      writeFileSync(marker, `${new Date().toISOString()}\n`);
      seeded = true;
    } else {
      // a data folder seeded before mailboxes were confirmed and roles granted: its seeded users are confirmed and granted (decision 070)
      const { loadUserService } = await import('../../lambdas/composition');
      await (await loadUserService()).confirmSeeded(SEED_USERS.map((u) => u.email));
    }

    // the stream workers' event source mappings: the same handler modules, driven by DynamoDB Local's streams
    for (const worker of WORKERS) {
      const poller = new StreamPoller({
        worker,
        table: tables[worker.source],
        dynamo: ddb,
        endpoint: env.AWS_ENDPOINT_URL_DYNAMODB!,
        region: env.AWS_REGION!,
        dataDir,
        log,
      });
      poller.start();
      pollers.push(poller);
    }

    // asynchronous Lambda invocations (generateArtefact, verifyUpload): the same handler modules, after the answer
    invoker = new LocalAsyncInvoker({
      dataDir,
      log,
      retryDelayMs: Number(env.LOCAL_ASYNC_RETRY_MS ?? 200),
      startDelayMs: Number(env.LOCAL_GENERATION_START_DELAY_MS ?? 0),
    });
    invoker.install();
    await invoker.warm();

    const { createLocalServer } = await import('./server');
    // presigned URLs point at s3rver: the SPA's CSP must let it connect there, as CloudFront's does for S3
    server = createLocalServer(opts.webRoot, [new URL(env.AWS_ENDPOINT_URL_S3!).origin]);
    await listenOn(server, opts.port, portVariable);
    const mailboxUrl = `http://localhost:${sesPort}/`;
    log(
      `DynamoDB Local on ${dynamoPort}, s3rver on ${s3Port}, SES mailbox on ${sesPort}; data in ${dataDir}`,
    );
    return {
      url: appUrl,
      mailboxUrl,
      env,
      seeded,
      ...(idp ? { companyIdp: { issuer: idp.issuer, accountsFile: idp.accountsFile } } : {}),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
