import { readFile } from 'node:fs/promises';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  DEFAULT_REGISTER_LIMITS,
  DEFAULT_RESET_LIMITS,
} from '../shared/domain/login-throttle';
import type { AuditTable } from './adapters/dynamodb/audit-commit';
import { DynamoAuditLog } from './adapters/dynamodb/audit-log';
import { DynamoCompanyIdentityStore } from './adapters/dynamodb/company-identity-store';
import { DynamoPasskeyRepository } from './adapters/dynamodb/passkey-repository';
import { DynamoPendingDecisions } from './adapters/dynamodb/pending-decisions';
import { DynamoResourceReferences, DynamoResourceRepository } from './adapters/dynamodb/resource-repository';
import { DynamoUserRepository } from './adapters/dynamodb/user-repository';
import { appUrl, bucketName, intEnv, optionalEnv, requireEnv, tableName, webauthnConfig } from './config/env';
import { logger } from './observability/logger';
import { countCommitted } from './observability/metrics';
import type { BlobStore } from './ports/blob-store';
import { systemClock } from './ports/clock';
import type { Mailer } from './ports/mailer';
import type { ResourceRepository } from './ports/resource-repository';
import type { UploadJobs } from './ports/upload-jobs';
import type { UserRecord, UserRepository } from './ports/user-repository';
import { confirmReauthTicket } from './services/company-sign-on/reauth-ticket';
import { ResourceService } from './services/resource-service';
import { CachedKeySource, parseKeySet, staticKeySource, type TokenKeySource } from './services/token-keys';
import { TokenService } from './services/token-service';
import { UserService, type UserServiceConfig } from './services/user-service';
import type { PasskeyPorts } from './services/users/passkey-ceremony';

/**
 * The composition root: builds services from the environment, once per module instance. Handlers call
 * these getters; nothing below the handler reads the environment, and middleware and services never import
 * a composition module (biome.json, noRestrictedImports).
 *
 * Naming rule of dependency getters: a getter is named after what it returns, a noun without prefix or
 * suffix (`userRepository()`, `packageService()`, `blobStore()`), and returns it synchronously. A getter
 * whose value needs an asynchronous load at cold start (the token key set from Secrets Manager) is named
 * `load<Thing>()` and returns a Promise (`loadUserService()`). Builders that take the adapters a Lambda
 * plugs in are named `<thing>With(...)` and return such a getter. One name per ability: a service composed
 * with more adapters is `<thing>With<Ability>()` (`packageServiceWithJobs`, `packageServiceWithArtefacts`,
 * `resourceServiceWithStorage`, `loadUserServiceWithMail`), so a handler's import says what it can do.
 *
 * This module imports DynamoDB adapters only. The adapters of mail and object storage pull in large SDK
 * clients (SES, S3), so composition-mail.ts, composition-storage.ts and composition-artefacts.ts export
 * getters composed with them; only the handlers of routes whose row `uses` them import those getters,
 * so a DynamoDB-only Lambda never bundles or loads them (docs/decisions/052-composition-by-adapter.md).
 * Here the ports a Lambda has not plugged in fail with an error naming the module to import.
 */

/** A synchronous getter that builds once; a build that throws assigns nothing, so the next call builds again. */
export function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/**
 * A port whose adapter is built on its first method call (again after a build that threw), so services can
 * hold ports their route may never call. Every method of the port forwards to the built adapter: a Proxy
 * answers any method name, so a method added to a port needs no wiring edit (decision 270).
 * The port is not a thenable (`then` is absent), so it can be awaited or returned from an async function.
 */
export function lazy<T extends object>(make: () => T): T {
  const get = once(make);
  const forwards = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  return new Proxy({} as T, {
    get(_, name) {
      if (name === 'then' || typeof name === 'symbol') return undefined;
      let f = forwards.get(name);
      if (!f) {
        f = (...args) => (get() as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
        forwards.set(name, f);
      }
      return f;
    },
  });
}

/** The error of a port this Lambda did not plug in. */
export const notPlugged = (what: string, module: string) =>
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

/**
 * The token key set's source (token-keys.ts, decision 215): TOKEN_SECRET holds a fixed key (tests, tools);
 * locally TOKEN_KEYS_FILE names the key set file under the data folder; in AWS TOKEN_SECRET_ARN names the
 * Secrets Manager secret. A file or a secret is read again after TOKEN_KEYS_CACHE_SECONDS, and at once
 * (at most every few seconds) when a token names a key this function does not know, so a warm function
 * picks up a rotation without a redeploy.
 */
function tokenKeySource(): TokenKeySource {
  const direct = process.env.TOKEN_SECRET;
  if (direct) return staticKeySource(parseKeySet(direct));
  const file = process.env.TOKEN_KEYS_FILE;
  const read = file
    ? () => readFile(file, 'utf8')
    : async () => {
        const arn = requireEnv('TOKEN_SECRET_ARN');
        const r = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
        if (!r.SecretString) throw new Error('token secret is empty');
        return r.SecretString;
      };
  const cacheMs = intEnv('TOKEN_KEYS_CACHE_SECONDS', 5 * 60) * 1000;
  return new CachedKeySource({
    read,
    now: () => Date.now(),
    cacheMs,
    minReloadMs: Math.min(cacheMs, 5_000),
    onReloadError: (e) =>
      logger().warn('token key set not read again; the last one stays in use', {
        reason: (e as Error).message,
      }),
  });
}

/**
 * Where the repositories chain the audit events of their writes, in the same transaction (decision 283):
 * the table is named on first use, so routes that write no event need no audit table.
 */
export const auditTable: AuditTable = {
  table: () => tableName('audit'),
  clock: systemClock,
  // a package generated, a mail given up: counted once their events commit (decision 312)
  committed: (events) => countCommitted(events),
};

/** The user repository (its writes chain their events into the audit table). */
export const userRepository = /* @__PURE__ */ once(
  (): UserRepository => new DynamoUserRepository(tableName('users'), auditTable),
);

/** The audit log, read (the history routes). */
export const auditLog = /* @__PURE__ */ once((): DynamoAuditLog => new DynamoAuditLog(tableName('audit')));

/** The mailer of a Lambda that has none (composition-mail.ts plugs in SES). */
export const noMailer: Mailer = {
  send: () => Promise.reject(notPlugged('mailer', 'composition-mail.ts')),
};

/**
 * The token service: built after the token key is read, and read again after a failed read. The gate of
 * every guarded route (composition-http.ts) and the identity service share it.
 */
export const loadTokenService: () => Promise<TokenService> = /* @__PURE__ */ retryingLoad(async () => {
  const keys = tokenKeySource();
  await keys.current(); // the first read must succeed: a failed one is read again by the next call
  return new TokenService(keys, intEnv('TOKEN_TTL_SECONDS', 2 * 60 * 60));
});

/**
 * Passkeys (decision 322): the store in the users table, whose adds, removals and updates chain their
 * events into the audit table in the same transaction (decision 283), and the relying party.
 */
export const passkeyPorts = /* @__PURE__ */ once(
  (): PasskeyPorts => ({
    store: new DynamoPasskeyRepository(tableName('users'), auditTable),
    webauthn: webauthnConfig(),
  }),
);

/** The sign-in throttle's limits (shared by sign-in and a signature's password check, decision 141). */
export const throttleConfig = () => ({
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
});

/** A comma-separated list from the environment, trimmed, lower case, without empty items. */
const listEnv = (name: string): string[] =>
  optionalEnv(name, '')
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);

/**
 * The stage's company sign-on as sign-in sees it (decision 315): present when COMPANY_IDP_ISSUER is set;
 * COMPANY_SIGN_ON_ONLY=true leaves passwords to the BREAK_GLASS_ADMINS only.
 */
export function companySignOnPolicy(): UserServiceConfig['companySignOn'] {
  if (!process.env.COMPANY_IDP_ISSUER) return undefined;
  return {
    name: optionalEnv('COMPANY_IDP_NAME', 'your company'),
    only: optionalEnv('COMPANY_SIGN_ON_ONLY', 'false') === 'true',
    breakGlassAdmins: listEnv('BREAK_GLASS_ADMINS'),
  };
}

/** The identity service's configuration, from the environment. */
export function userServiceConfig(): UserServiceConfig {
  return {
    tempPasswordMinutes: intEnv('TEMP_PASSWORD_MINUTES', 30),
    ...throttleConfig(),
    resetLimits: {
      perAddress: intEnv('RESET_MAX_PER_ADDRESS', DEFAULT_RESET_LIMITS.perAddress),
      perSource: intEnv('RESET_MAX_PER_SOURCE', DEFAULT_RESET_LIMITS.perSource),
      windowSeconds: intEnv('RESET_WINDOW_SECONDS', DEFAULT_RESET_LIMITS.windowSeconds),
    },
    registerLimits: {
      perSource: intEnv('REGISTER_MAX_PER_SOURCE', DEFAULT_REGISTER_LIMITS.perSource),
      windowSeconds: intEnv('REGISTER_WINDOW_SECONDS', DEFAULT_REGISTER_LIMITS.windowSeconds),
    },
    appUrl: appUrl(),
    allowedEmailDomains: listEnv('ALLOWED_EMAIL_DOMAINS'),
    companySignOn: companySignOnPolicy(),
  };
}

/**
 * The identity service with the given mailer, as a getter: built after the token key is read, and read
 * again after a failed read.
 */
export function userServiceWith(mailer: Mailer): () => Promise<UserService> {
  return retryingLoad(() =>
    loadTokenService().then(
      (tokens) =>
        new UserService(
          userRepository(),
          tokens,
          mailer,
          systemClock,
          userServiceConfig(),
          // only the admin deletion of users reads it: the packages table is named when first used
          new DynamoPendingDecisions(() => tableName('packages')),
          lazyPasskeys,
          companyReauth(),
        ),
    ),
  );
}

/**
 * A company reauthentication ticket as the proof of a signature or of an account change (decisions 315,
 * 366, 368): taken once, from the users table. Undefined on a stage without company sign-on, whose
 * deciding calls answer a ticket with 400.
 */
export function companyReauth(): ((user: UserRecord, ticket: string) => Promise<void>) | undefined {
  if (!process.env.COMPANY_IDP_ISSUER) return undefined;
  return (user, ticket) =>
    confirmReauthTicket(
      { identities: new DynamoCompanyIdentityStore(tableName('users'), auditTable), clock: systemClock },
      user,
      ticket,
    );
}

/** The passkey ports, built on first use: the users table and the relying party are read then. */
const lazyPasskeys: PasskeyPorts = {
  store: lazy(() => passkeyPorts().store),
  get webauthn() {
    return passkeyPorts().webauthn;
  },
};

/** The identity service of a Lambda without mail (composition-mail.ts has the one that mails). */
export const loadUserService: () => Promise<UserService> = /* @__PURE__ */ userServiceWith(noMailer);

/** The API stage name (the first segment of every API path). */
export const stageName = (): string => optionalEnv('API_STAGE', 'dev');

// ── resources ─────────────────────────────────────────────────────────────────────────────────
/** The resource repository (the package service reads resources through it too). */
export const resourceRepository = /* @__PURE__ */ once(
  (): ResourceRepository => new DynamoResourceRepository(tableName('resources'), auditTable),
);

/** Object storage of a Lambda that has none: the list routes build the resource service without it. */
export const noBlobStore = /* @__PURE__ */ lazy<BlobStore>(() => {
  throw notPlugged('object storage', 'composition-storage.ts');
});

/**
 * The resources service with the given object storage, as a getter. Table and bucket names of optional
 * ports are read when first used, because each Lambda gets only the variables of the stores its route
 * table row `uses` (lists have no bucket).
 */
export function resourceServiceWith(blobs: BlobStore, jobs?: () => UploadJobs): () => ResourceService {
  return once(
    () =>
      new ResourceService(
        resourceRepository(),
        new DynamoResourceReferences(() => tableName('packages')),
        blobs,
        systemClock,
        {
          bucket: () => bucketName('resources'),
          maxResourceBytes: intEnv('MAX_RESOURCE_BYTES', 10 * 1024 ** 3),
          maxMetadataBytes: intEnv('MAX_METADATA_BYTES', 1_000_000),
          uploadTtlSeconds: intEnv('UPLOAD_URL_TTL_SECONDS', 15 * 60),
          multipartTtlSeconds: intEnv('MULTIPART_UPLOAD_TTL_SECONDS', 24 * 3600),
        },
        jobs,
      ),
  );
}

/** The resources service of a Lambda without object storage (composition-storage.ts has the other). */
export const resourceService: () => ResourceService = /* @__PURE__ */ resourceServiceWith(noBlobStore);
