import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  DEFAULT_RESET_LIMITS,
} from '../shared/domain/login-throttle';
import { DynamoAuditLog } from './adapters/dynamodb/audit-log';
import { DynamoPendingDecisions } from './adapters/dynamodb/pending-decisions';
import { DynamoResourceReferences, DynamoResourceRepository } from './adapters/dynamodb/resource-repository';
import { DynamoUserRepository } from './adapters/dynamodb/user-repository';
import { appUrl, bucketName, intEnv, optionalEnv, requireEnv, tableName } from './config/env';
import type { AuditLog } from './ports/audit-log';
import type { BlobStore } from './ports/blob-store';
import { systemClock } from './ports/clock';
import type { Mailer } from './ports/mailer';
import type { ResourceRepository } from './ports/resource-repository';
import type { UserRepository } from './ports/user-repository';
import { ResourceService } from './services/resource-service';
import { TokenService } from './services/token-service';
import { UserService } from './services/user-service';

/**
 * The composition root: builds services from the environment, once per module instance. Handlers call
 * these getters; nothing below the handler reads the environment.
 *
 * This module imports DynamoDB adapters only. The adapters of mail and object storage pull in large SDK
 * clients (SES, S3), so they are plugged in by composition-mail.ts and composition-storage.ts, which only
 * the handlers of routes whose row `uses` them import: a DynamoDB-only Lambda never bundles or loads them
 * (docs/decisions/052-composition-by-adapter.md). Using a port that was not plugged in is a clear error.
 */
let mailerFactory: (() => Mailer) | undefined;
/** Plugs in the mailer (composition-mail.ts). */
export function provideMailer(make: () => Mailer): void {
  mailerFactory = make;
}

let blobStoreFactory: (() => BlobStore) | undefined;
/** Plugs in object storage (composition-storage.ts). */
export function provideBlobStore(make: () => BlobStore): void {
  blobStoreFactory = make;
}

/** A port that resolves on first use, so services can hold ports their route may never call. */
export function lazy<T extends object>(make: () => T): T {
  let inst: T | undefined;
  return new Proxy({} as T, {
    get: (_, prop) => {
      inst ??= make();
      const v = (inst as Record<string | symbol, unknown>)[prop];
      return typeof v === 'function' ? v.bind(inst) : v;
    },
  });
}

const missing = (what: string, module: string) =>
  new Error(`This function has no ${what}: its handler must import lambdas/${module} (route table 'uses')`);

/**
 * An asynchronous dependency loaded once per container: concurrent callers share one load, a success is
 * kept, and a failure is forgotten so the next invocation loads again. A rejected promise kept for the
 * container's life would break every route of that Lambda after one hiccup at cold start (a throttled or
 * briefly unreachable Secrets Manager) until AWS recycles it. (Synchronous `x ??= make()` getters retry
 * by themselves: a throwing `make` assigns nothing.)
 */
export function retryingLoad<T>(load: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    if (!current) {
      const attempt = (async () => load())();
      current = attempt;
      attempt.catch(() => {
        if (current === attempt) current = undefined;
      });
    }
    return current;
  };
}

/** Locally TOKEN_SECRET holds the key; in AWS, TOKEN_SECRET_ARN names a Secrets Manager secret read at cold start. */
const loadTokenSecret = retryingLoad(async (): Promise<string> => {
  const direct = process.env.TOKEN_SECRET;
  if (direct) return direct;
  const arn = requireEnv('TOKEN_SECRET_ARN');
  const r = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!r.SecretString) throw new Error('token secret is empty');
  return r.SecretString;
});

let users: UserRepository | undefined;
export const userRepository = (): UserRepository => {
  users ??= new DynamoUserRepository(tableName('users'));
  return users;
};

let audit: AuditLog | undefined;
export const auditLog = (): AuditLog => {
  audit ??= new DynamoAuditLog(tableName('audit'), systemClock);
  return audit;
};

let mailer: Mailer | undefined;
export const mailService = (): Mailer => {
  if (!mailerFactory) throw missing('mailer', 'composition-mail.ts');
  mailer ??= mailerFactory();
  return mailer;
};

/** The identity service; built after the token key is read, and read again after a failed read. */
export const users$: () => Promise<UserService> = retryingLoad(() =>
  loadTokenSecret().then(
    (secret) =>
      new UserService(
        userRepository(),
        new TokenService(secret, intEnv('TOKEN_TTL_SECONDS', 2 * 60 * 60)),
        // A lazy mailer: routes that never mail need no MAIL_FROM.
        { send: (m) => mailService().send(m) },
        // Identity routes that write also audit; read-only ones never touch the audit table.
        { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
        systemClock,
        {
          tempPasswordMinutes: intEnv('TEMP_PASSWORD_MINUTES', 30),
          maxFailuresPerSource: intEnv('LOGIN_MAX_FAILURES_PER_SOURCE', 100),
          sourceWindowSeconds: intEnv('LOGIN_SOURCE_WINDOW_SECONDS', 15 * 60),
          accountPolicy: {
            ...DEFAULT_ACCOUNT_POLICY,
            baseLockSeconds: intEnv('LOGIN_LOCK_BASE_SECONDS', DEFAULT_ACCOUNT_POLICY.baseLockSeconds),
          },
          accountWidePolicy: {
            ...DEFAULT_ACCOUNT_WIDE_POLICY,
            freeFailures: intEnv('LOGIN_ACCOUNT_MAX_SOURCES', DEFAULT_ACCOUNT_WIDE_POLICY.freeFailures),
            baseLockSeconds: intEnv('LOGIN_LOCK_BASE_SECONDS', DEFAULT_ACCOUNT_WIDE_POLICY.baseLockSeconds),
          },
          resetLimits: {
            perAddress: intEnv('RESET_MAX_PER_ADDRESS', DEFAULT_RESET_LIMITS.perAddress),
            perSource: intEnv('RESET_MAX_PER_SOURCE', DEFAULT_RESET_LIMITS.perSource),
            windowSeconds: intEnv('RESET_WINDOW_SECONDS', DEFAULT_RESET_LIMITS.windowSeconds),
          },
          appUrl: appUrl(),
          allowedEmailDomains: optionalEnv('ALLOWED_EMAIL_DOMAINS', '')
            .split(',')
            .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
            .filter(Boolean),
        },
        // only the admin deletion of users reads it: the packages table is named when first used
        new DynamoPendingDecisions(() => tableName('packages')),
      ),
  ),
);

export const stageName = (): string => optionalEnv('API_STAGE', 'dev');

// ── resources ─────────────────────────────────────────────────────────────────────────────────
let resourceRepo: ResourceRepository | undefined;
/** The resource repository (the package service reads resources through it too). */
export const resourceRepository = (): ResourceRepository => {
  resourceRepo ??= new DynamoResourceRepository(tableName('resources'));
  return resourceRepo;
};

let blobStoreInstance: BlobStore | undefined;
/** Object storage, one per instance; callers pass the bucket (bucketName('resources'|'artefacts'|'audit')). */
export const blobStore = (): BlobStore => {
  if (!blobStoreFactory) throw missing('object storage', 'composition-storage.ts');
  blobStoreInstance ??= blobStoreFactory();
  return blobStoreInstance;
};

let resourceService: ResourceService | undefined;
/**
 * Resources service. Table and bucket names of optional ports are read when first used, because each
 * Lambda gets only the variables of the stores its route table row `uses` (lists have no bucket).
 */
export function resources$(): ResourceService {
  resourceService ??= new ResourceService(
    resourceRepository(),
    new DynamoResourceReferences(() => tableName('packages')),
    // resolved on first use: the list routes build this service without object storage
    lazy(blobStore),
    { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
    systemClock,
    {
      bucket: () => bucketName('resources'),
      maxResourceBytes: intEnv('MAX_RESOURCE_BYTES', 2_000_000_000),
      maxMetadataBytes: intEnv('MAX_METADATA_BYTES', 1_000_000),
      uploadTtlSeconds: intEnv('UPLOAD_URL_TTL_SECONDS', 15 * 60),
    },
  );
  return resourceService;
}
