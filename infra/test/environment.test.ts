import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BucketName, TableName } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import { ASYNC_WORKERS, asyncWorkerEnv } from '../../shared/api/workers';
import { BUCKETS, TABLES } from '../lib/definitions';
import { REPO_ROOT } from '../lib/portal-config';
import { type Synthesized, synthPortal } from './support/synth';
import {
  actionsOf,
  type Json,
  resourcesOfType,
  type Statement,
  statementsOfFunction,
} from './support/template';

/**
 * every function gets the environment its code reads. The variables the code reads are found
 * in the source (lambdas/, shared/); what each function needs is derived from what the synthesized
 * template lets it do (its role's grants), independently of how grant-uses.ts derives it.
 */

/** Variables the code reads that the stack sets from the stage settings or for every function. */
const STAGE_VARIABLES = [
  'API_STAGE',
  'TOKEN_TTL_SECONDS',
  'ALLOWED_EMAIL_DOMAINS',
  // every route: a call that did not come through CloudFront is refused (decision 208)
  'ORIGIN_VERIFY_REQUIRED',
  // every function: the business metrics' namespace (decision 312)
  'METRICS_NAMESPACE',
  // every route: the passkeys' relying party (the portal's origin) and whether the stage requires them
  // (decision 322); outbox writers' mail links use the same origin
  'APP_URL',
  'PASSKEYS_REQUIRED',
  // every function: the stage's approval policy by name, read wherever the domain's rules load (decision 338)
  'APPROVAL_POLICY',
  // the stage's company identity provider (decision 315), on the rows that sign in or check a session
  'COMPANY_IDP_ISSUER',
  'COMPANY_IDP_CLIENT_ID',
  'COMPANY_IDP_CLIENT_SECRET_ARN',
  'COMPANY_IDP_NAME',
  'COMPANY_IDP_EMAIL_DOMAINS',
  'COMPANY_SIGN_ON_ONLY',
  'BREAK_GLASS_ADMINS',
];
/** Tunables with a default in the code that AWS leaves unset on purpose (the defaults are the product's). */
const CODE_DEFAULTS = [
  'TOKEN_KEYS_CACHE_SECONDS',
  'ORIGIN_VERIFY_CACHE_SECONDS',
  'REGISTER_MAX_PER_SOURCE',
  'REGISTER_WINDOW_SECONDS',
  'INLINE_DOWNLOAD_MAX_BYTES',
  'DOWNLOAD_URL_TTL_SECONDS',
  'MAIL_MAX_ATTEMPTS',
  'MAIL_RETRY_BASE_MS',
  'MAIL_RETRY_MAX_MS',
  'LOGIN_MAX_FAILURES_PER_SOURCE',
  'LOGIN_SOURCE_WINDOW_SECONDS',
  'LOGIN_LOCK_BASE_SECONDS',
  'LOGIN_ACCOUNT_MAX_SOURCES',
  'TEMP_PASSWORD_MINUTES',
  'RESET_MAX_PER_ADDRESS',
  'RESET_MAX_PER_SOURCE',
  'RESET_WINDOW_SECONDS',
  'MAX_RESOURCE_BYTES',
  'MAX_METADATA_BYTES',
  'UPLOAD_URL_TTL_SECONDS',
  'MULTIPART_UPLOAD_TTL_SECONDS',
  'COMPANY_SIGN_ON_MAX_STARTS_PER_SOURCE',
  'COMPANY_SIGN_ON_START_WINDOW_SECONDS',
  'PASSKEY_RP_NAME',
];
/** Only the local stack sets these (emulators, in-process secrets); a Lambda must never get one. */
const LOCAL_ONLY = [
  'SIGNING_KEY_FILE',
  'DEV_SIGNING_KEY_FILE',
  'TOKEN_SECRET',
  'TOKEN_KEYS_FILE',
  'ORIGIN_VERIFY_SECRET',
  'LOCAL_ASYNC_INVOKE',
  'S3_LOCAL_COMPAT',
  // the local IdP's client secret; in AWS the secret is read by its ARN
  'COMPANY_IDP_CLIENT_SECRET',
];
/** Set by the Lambda runtime itself in every function (the logger maps stacks only there, decision 349). */
const LAMBDA_RUNTIME = ['AWS_LAMBDA_FUNCTION_NAME'];
/** Set from a grant (below): the name or ARN of what the function was granted. */
const FROM_GRANTS = [
  'MAIL_FROM',
  'TOKEN_SECRET_ARN',
  'ORIGIN_VERIFY_SECRET_ARN',
  'SIGNING_KEY_ID',
  'DEV_SIGNING_KEY_ID',
  ...(Object.keys(TABLES) as TableName[]).map(tableEnv),
  ...(Object.keys(BUCKETS) as BucketName[]).map(bucketEnv),
  ...ASYNC_WORKERS.map((w) => asyncWorkerEnv(w.id)),
];

/** Source files of the functions' code (tests excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** module (repo-relative) → the variables it reads, through lambdas/config/env.ts or process.env */
function variablesByModule(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of [...sources(join(REPO_ROOT, 'lambdas')), ...sources(join(REPO_ROOT, 'shared'))]) {
    const text = readFileSync(file, 'utf8');
    const vars = new Set<string>();
    for (const m of text.matchAll(/(?:requireEnv|optionalEnv|intEnv)\(\s*'([A-Z0-9_]+)'/g)) vars.add(m[1]!);
    for (const m of text.matchAll(/process\.env\.([A-Z0-9_]+)/g)) vars.add(m[1]!);
    if (/\bappUrl\(\)/.test(text) && !file.endsWith(join('config', 'env.ts'))) vars.add('APP_URL');
    for (const m of text.matchAll(/\btableName\(\s*'(\w+)'\)/g)) vars.add(tableEnv(m[1] as TableName));
    for (const m of text.matchAll(/\bbucketName\(\s*'(\w+)'\)/g)) vars.add(bucketEnv(m[1] as BucketName));
    for (const m of text.matchAll(/asyncWorkerEnv\(\s*'(\w+)'\)/g)) vars.add(asyncWorkerEnv(m[1]!));
    if (vars.size > 0) out.set(relative(REPO_ROOT, file), vars);
  }
  return out;
}

let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

/** The app's functions (not CDK's BucketDeployment helper): [logical id, properties]. */
const appFunctions = () =>
  resourcesOfType(s, 'AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'));
const envOf = (props: Json) =>
  ((props.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) as Json;
const refersTo = (st: Statement, logicalId: string) => JSON.stringify(st.Resource).includes(`"${logicalId}"`);
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'];
const ITEM_ACTIONS = [
  ...WRITES,
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:DeleteItem',
];

/** What the function's grants say it needs (independent of grant-uses.ts's derivation). */
function requiredByGrants(fnId: string): Map<string, unknown> {
  const st = statementsOfFunction(s, fnId);
  const need = new Map<string, unknown>();
  const can = (action: string, logicalId?: string) =>
    st.some((x) => actionsOf(x).includes(action) && (logicalId === undefined || refersTo(x, logicalId)));
  for (const t of Object.keys(TABLES) as TableName[]) {
    const id = s.logicalId(s.stack.data.tables[t]);
    // item actions on the table (a stream worker's stream actions name the table's stream, not its items)
    if (st.some((x) => actionsOf(x).some((a) => ITEM_ACTIONS.includes(a)) && refersTo(x, id)))
      need.set(tableEnv(t), { Ref: id });
  }
  for (const b of Object.keys(BUCKETS) as BucketName[]) {
    const id = s.logicalId(s.stack.data.buckets[b]);
    if (st.some((x) => actionsOf(x).some((a) => a.startsWith('s3:')) && refersTo(x, id)))
      need.set(bucketEnv(b), { Ref: id });
  }
  const outbox = s.logicalId(s.stack.data.tables.outbox);
  const canMail = can('ses:SendEmail') || WRITES.some((a) => can(a, outbox));
  if (canMail) need.set('APP_URL', undefined);
  if (can('ses:SendEmail')) need.set('MAIL_FROM', s.stack.mail.senderAddress);
  if (can('secretsmanager:GetSecretValue', s.logicalId(s.stack.signing.tokenSecret)))
    need.set('TOKEN_SECRET_ARN', { Ref: s.logicalId(s.stack.signing.tokenSecret) });
  if (can('secretsmanager:GetSecretValue', s.logicalId(s.stack.signing.originVerifySecret)))
    need.set('ORIGIN_VERIFY_SECRET_ARN', { Ref: s.logicalId(s.stack.signing.originVerifySecret) });
  if (can('kms:GetPublicKey', s.logicalId(s.stack.signing.packageKey)))
    need.set('SIGNING_KEY_ID', { Ref: s.logicalId(s.stack.signing.packageKey) });
  if (can('kms:GetPublicKey', s.logicalId(s.stack.signing.devKey)))
    need.set('DEV_SIGNING_KEY_ID', { Ref: s.logicalId(s.stack.signing.devKey) });
  for (const w of ASYNC_WORKERS) {
    const id = s.logicalId(s.stack.generation.functions.get(w.id)!);
    if (can('lambda:InvokeFunction', id)) need.set(asyncWorkerEnv(w.id), { Ref: id });
  }
  return need;
}

describe('the environment of every function', () => {
  it('knows every variable the code reads: set from a grant, from the stage, left to a code default, or local only', () => {
    const known = new Set([
      ...STAGE_VARIABLES,
      ...CODE_DEFAULTS,
      ...LOCAL_ONLY,
      ...FROM_GRANTS,
      ...LAMBDA_RUNTIME,
    ]);
    const unknown = [...variablesByModule()].flatMap(([module, vars]) =>
      [...vars].filter((v) => !known.has(v)).map((v) => `${v} (read in ${module})`),
    );
    // a new variable in the code: decide here how AWS sets it (and set it in infra/lib/constructs/grant-uses.ts)
    expect(unknown).toEqual([]);
    // the mail links (APP_URL, read by appUrl() of env.ts) are built in the identity and package services;
    // company sign-on's redirect URI is on the same origin (decision 315)
    const appUrlReaders = [...variablesByModule()].filter(([, v]) => v.has('APP_URL')).map(([m]) => m);
    expect(appUrlReaders.sort()).toEqual([
      'lambdas/composition-company.ts',
      'lambdas/composition-packages.ts',
      'lambdas/composition.ts',
      'lambdas/config/env.ts',
    ]);
  });

  it('gives every function that can write a mail (SES, or the outbox) APP_URL: the portal origin, never localhost', () => {
    const appOrigin = s.stack.resolve(s.stack.web.appOrigin);
    const mailers = appFunctions().filter(([id]) => requiredByGrants(id).has('APP_URL'));
    // routes, the mail worker and the generation worker (its "Package approved/signed" mails)
    expect(mailers.length).toBeGreaterThan(5);
    expect(mailers.map(([id]) => id)).toContain(
      s.logicalId(s.stack.generation.functions.get('generateArtefact')!),
    );
    expect(mailers.map(([id]) => id)).toContain(s.logicalId(s.stack.workers.functions.get('mailOutbox')!));
    for (const [id, props] of mailers) {
      expect(envOf(props).APP_URL, `${id} (${String(props.Description)})`).toEqual(appOrigin);
      expect(JSON.stringify(envOf(props).APP_URL)).not.toContain('localhost');
    }
  });

  it('gives every function each variable its grants imply, with the granted resource as value', () => {
    for (const [id, props] of appFunctions()) {
      const env = envOf(props);
      for (const [name, value] of requiredByGrants(id)) {
        expect(env, `${id} (${String(props.Description)}) lacks ${name}`).toHaveProperty(name);
        if (value !== undefined) expect(env[name], `${id} ${name}`).toEqual(value);
      }
    }
  });

  it('sets nothing a function was not granted, and no local-only variable', () => {
    for (const [id, props] of appFunctions()) {
      const env = envOf(props);
      const needed = requiredByGrants(id);
      for (const name of Object.keys(env)) {
        expect(LOCAL_ONLY, `${id} ${name}`).not.toContain(name);
        if (FROM_GRANTS.includes(name))
          expect(needed.has(name), `${id} has ${name} without the grant`).toBe(true);
        else expect(STAGE_VARIABLES, `${id} ${name}`).toContain(name);
      }
    }
  });
});
