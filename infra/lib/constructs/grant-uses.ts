import { Aws, type CfnElement, type Duration, Names, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { STAGES } from '../../../shared/api/contracts/resources';
import { METRICS_NAMESPACE_ENV, metricsNamespace } from '../../../shared/api/metrics';
import { type BucketName, type RouteUses, tablesWritten } from '../../../shared/api/routes';
import { bucketEnv, signingKeyEnv, tableEnv } from '../../../shared/api/runtime';
import { asyncWorkerEnv } from '../../../shared/api/workers';
import { BUCKETS, TABLES } from '../definitions';
import type { PortalConfig } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';
import type { Data } from './data';
import type { Mail } from './mail';
import type { Signing } from './signing';

/**
 * The one place that turns a row's `uses` (routes, stream workers, asynchronous workers) into IAM
 * statements on the function's own role and the environment variables that name what was granted
 * (docs/decisions/179). infra/local/iam-check.ts mirrors these rules for the local stack.
 */

export const DDB_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
export const DDB_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
/** The audit trail is append-only: handlers may add events, never change or remove one. */
export const DDB_APPEND = ['dynamodb:PutItem'];

type BucketOp = 'read' | 'write' | 'delete' | 'parts';
/** write covers multipart uploads too (generated packages stream in parts; a failed one is aborted) */
const S3_ACTIONS: Record<BucketOp, readonly string[]> = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject', 's3:AbortMultipartUpload'],
  delete: ['s3:DeleteObject'],
  parts: ['s3:ListMultipartUploadParts'],
};

/**
 * The S3 actions of one bucket operation. The Object Lock audit bucket is append-only like the audit
 * table: its one writer (the auditCopy worker) puts one small object per event, never in parts, so
 * `write` there is PutObject alone. Reading a versioned bucket includes reading a version by its id: the
 * artefacts' readers ask for the version generation pinned, and presign URLs for it (decision 302).
 */
const s3Actions = (bucket: BucketName, op: BucketOp): readonly string[] => {
  if (bucket === 'audit' && op === 'write') return ['s3:PutObject'];
  if (op === 'read' && BUCKETS[bucket].versioned) return [...S3_ACTIONS.read, 's3:GetObjectVersion'];
  return S3_ACTIONS[op];
};

/** What `uses` can name: the stack's stores, keys, sender and asynchronous workers. */
export interface UsesTargets {
  data: Data;
  /** needed for `sign`, `clientSource` and the token secret */
  signing?: Signing;
  /** needed for `mail` */
  mail?: Mail;
  /** needed for `invoke`: worker id → its function */
  asyncWorkers?: ReadonlyMap<string, lambda.IFunction>;
  /** https origin of the portal: needed by every function that can write a mail (APP_URL) */
  appUrl?: string;
}

/**
 * Whether a function with these `uses` can write a mail: it sends one (`mail`) or commits one to the
 * outbox (decision 095). Its mails link to the portal, so it needs APP_URL (lambdas/config/env.ts falls
 * back to http://localhost:3000, which is right only for the local stack).
 */
export const writesMail = (uses: RouteUses, readOnly = false): boolean =>
  uses.mail === true || (!readOnly && uses.tables.includes('outbox'));

/**
 * The resource of a token as cdk-nag prints it from `consumer`'s template: `<LogicalId.Arn>` in the same
 * stack; from a nested stack of the producer's stack, the parameter CDK passes it through
 * (`<referenceto<unique id>Arn>`, aws-cdk-lib's nested-stack references).
 */
export function nagArn(consumer: Construct, target: CfnElement): string {
  const producer = Stack.of(target);
  if (Stack.of(consumer) === producer) return `<${producer.getLogicalId(target)}.Arn>`;
  return `<referenceto${Names.nodeUniqueId(target.node)}Arn>`;
}

export interface GrantOptions {
  /** who is granted, for errors: `Route x`, `Worker y` */
  grantee: string;
  /** read actions only on every table (GET rows: docs/decisions/011) */
  readOnly?: boolean;
  /**
   * dynamodb:Query on the tables' named indexes (default true). Stream workers go without: they address
   * items by the keys their stream records carry.
   */
  tableIndexes?: boolean;
  /** the token HMAC key (routes that build the identity service: needsTokenSecret in api.ts) */
  tokenSecret?: boolean;
  /** the origin-verify secret, to refuse calls that skipped CloudFront (every route: decision 208) */
  originVerify?: boolean;
  /** the ARN of `role` built from its fixed name (signers: see Signing.allowSigning; usesFunction sets it) */
  signerRoleArn?: string;
  /** why object ARNs of a listed bucket end in `/*` (the cdk-nag IAM5 acknowledgement on the role) */
  objectKeysReason: string;
}

/**
 * Grants `role` exactly what `uses` lists and returns the environment variables that tell the code the
 * names of what was granted (TABLE_*, BUCKET_*, secret ARNs, MAIL_FROM, *_FUNCTION, SIGNING_KEY_ID,
 * DEV_SIGNING_KEY_ID).
 */
export function grantUses(
  role: iam.Role,
  uses: RouteUses,
  targets: UsesTargets,
  opts: GrantOptions,
): Record<string, string> {
  const { data } = targets;
  const env: Record<string, string> = {};
  const allow = (actions: readonly string[], resources: string[]) =>
    role.addToPolicy(new iam.PolicyStatement({ actions: [...actions], resources }));
  const need = <T>(target: T | undefined, what: string): T => {
    if (!target) throw new Error(`${opts.grantee} uses ${what}, which its construct is not given`);
    return target;
  };

  const written = tablesWritten(uses);
  for (const name of uses.tables) {
    const table = data.tables[name];
    env[tableEnv(name)] = table.tableName;
    // read-only: GET rows, and the tables a row does not change (`writes`); the audit trail: add only
    const write = opts.readOnly || !written.includes(name) ? [] : name === 'audit' ? DDB_APPEND : DDB_WRITE;
    allow([...DDB_READ, ...write], [table.tableArn]);
    const indexes = TABLES[name].indexes.map((i) => `${table.tableArn}/index/${i.name}`);
    if ((opts.tableIndexes ?? true) && indexes.length > 0) allow(['dynamodb:Query'], indexes);
  }

  for (const [name, ops] of Object.entries(uses.buckets ?? {}) as [BucketName, BucketOp[]][]) {
    const bucket = data.buckets[name];
    env[bucketEnv(name)] = bucket.bucketName;
    allow(
      ops.flatMap((op) => s3Actions(name, op)),
      [bucket.arnForObjects('*')],
    );
    // Without ListBucket, S3 answers 403 instead of 404 for a missing key, and readers that treat
    // "not there" as a normal outcome (an upload never made) would fail with a 500.
    if (ops.includes('read')) allow(['s3:ListBucket'], [bucket.bucketArn]);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagArn(role, bucket.node.defaultChild as s3.CfnBucket)}/*]`,
      reason: opts.objectKeysReason,
    });
  }

  if (opts.tokenSecret) {
    const secret = need(targets.signing, 'the token secret').tokenSecret;
    env.TOKEN_SECRET_ARN = secret.secretArn;
    allow(['secretsmanager:GetSecretValue'], [secret.secretArn]);
  }

  if (uses.clientSource || opts.originVerify) {
    const secret = need(targets.signing, 'the origin-verify secret').originVerifySecret;
    env.ORIGIN_VERIFY_SECRET_ARN = secret.secretArn;
    allow(['secretsmanager:GetSecretValue'], [secret.secretArn]);
  }

  if (uses.mail) {
    const mail = need(targets.mail, 'mail');
    env.MAIL_FROM = mail.senderAddress;
    // the sender's address and domain identities, and the verified recipients in the SES sandbox (mail.ts)
    allow(['ses:SendEmail'], mail.sendingIdentityArns);
  }

  if (writesMail(uses, opts.readOnly)) {
    if (targets.appUrl === undefined)
      throw new Error(
        `${opts.grantee} can write a mail, which links to the portal: its construct must be given appUrl`,
      );
    env.APP_URL = targets.appUrl;
  }

  for (const id of uses.invoke ?? []) {
    const worker = targets.asyncWorkers?.get(id);
    if (!worker) throw new Error(`${opts.grantee} invokes ${id}, which the stack does not define`);
    env[asyncWorkerEnv(id)] = worker.functionName;
    allow(['lambda:InvokeFunction'], [worker.functionArn]);
  }

  if (uses.sign) {
    const signing = need(targets.signing, 'the package signing keys');
    // a signer gets its own stage's key alone; a public-key reader both public halves (decision 295)
    const signs = uses.sign === 'publicKey' ? undefined : uses.sign;
    for (const stage of signs ? [signs] : STAGES) {
      const key = signing.keyOf(stage);
      env[signingKeyEnv(stage)] = key.keyId;
      allow(signs ? ['kms:Sign', 'kms:GetPublicKey'] : ['kms:GetPublicKey'], [key.keyArn]);
    }
    // the key policy, not IAM, decides who signs (docs/decisions/205): name the role there
    if (signs) {
      if (!opts.signerRoleArn) throw new Error(`${opts.grantee} signs, but its role has no fixed name`);
      signing.allowSigning(signs, opts.signerRoleArn);
    }
  }

  return env;
}

/**
 * The fixed name of a signing function's role: `frp-<stage>-<construct id, kebab-case>-<region>` (unique
 * per account: IAM names are global, stages and regions are not).
 */
export function signerRoleName(stage: string, constructId: string): string {
  const kebab = constructId.replace(/[A-Z]/g, (c, i: number) => `${i > 0 ? '-' : ''}${c.toLowerCase()}`);
  return `frp-${stage}-${kebab}-${Aws.REGION}`;
}

export interface UsesFunctionProps {
  config: PortalConfig;
  /** entry, runtime, architecture and bundling (lambdaCode / routeCode of api.ts) */
  code: NodejsFunctionProps;
  roleDescription: string;
  description: string;
  memorySize: number;
  timeout: Duration;
  uses: RouteUses;
  targets: UsesTargets;
  grant: GrantOptions;
  /** variables besides the ones `uses` implies; they come first (API_STAGE, token settings) */
  environment?: Record<string, string>;
}

/**
 * A function of the app in `scope` (ids Logs, Role, Function): its own log group, its own role that may
 * write that log group only (the default role would attach AWSLambdaBasicExecutionRole, logs on every
 * group of the account), and the grants of `uses`.
 */
export function usesFunction(scope: Construct, props: UsesFunctionProps): NodejsFunction {
  const logGroup = new logs.LogGroup(scope, 'Logs', {
    retention: logs.RetentionDays.ONE_YEAR,
    removalPolicy: statefulRemovalPolicy(props.config),
  });
  // A signing function's role has a fixed name, so the key policy can name it without a reference
  const signs = props.uses.sign !== undefined && props.uses.sign !== 'publicKey';
  const roleName = signs ? signerRoleName(props.config.stage, scope.node.id) : undefined;
  const role = new iam.Role(scope, 'Role', {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: props.roleDescription,
    roleName,
  });
  logGroup.grantWrite(role);
  const signerRoleArn = roleName
    ? Stack.of(scope).formatArn({ service: 'iam', region: '', resource: 'role', resourceName: roleName })
    : undefined;
  const environment = {
    ...props.environment,
    // business metrics (EMF) go to this namespace; unset locally, where none are written (decision 312)
    [METRICS_NAMESPACE_ENV]: metricsNamespace(props.config.stage),
    // the stage's approval policy (shared/domain/approval-policies.ts): every function runs the same one
    APPROVAL_POLICY: props.config.approvalPolicy,
    ...grantUses(role, props.uses, props.targets, { ...props.grant, signerRoleArn }),
  };
  const fn = new NodejsFunction(scope, 'Function', {
    ...props.code,
    description: props.description,
    memorySize: props.memorySize,
    timeout: props.timeout,
    role,
    logGroup,
    environment,
    // X-Ray active tracing: each invocation's segment, joined to the API stage's (decision 312)
    tracing: lambda.Tracing.ACTIVE,
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: `${props.grant.grantee}: xray:PutTraceSegments and xray:PutTelemetryRecords for X-Ray active tracing support no resource-level permissions; they write trace data only. Other wildcards on this role are explained on their own statements.`,
  });
  return fn;
}
