import { CfnOutput, Lazy, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import * as eventsTargets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { API_STAGE, ROUTES, type Route } from '../../shared/api/routes';
import { pascal } from './construct-id';
import { Api, topSegment } from './constructs/api';
import { ApiGuard } from './constructs/api-guard';
import { Auditors } from './constructs/auditors';
import { Data } from './constructs/data';
import { Edge } from './constructs/edge';
import { Generation } from './constructs/generation';
import { Mail } from './constructs/mail';
import { Monitoring } from './constructs/monitoring';
import { Signing } from './constructs/signing';
import { SigningTrail } from './constructs/trail';
import { Web } from './constructs/web';
import { Workers } from './constructs/workers';
import type { PortalConfig } from './portal-config';

export interface PortalStackProps extends StackProps {
  config: PortalConfig;
}

/**
 * The route stacks: nested stacks that hold the routes' functions, roles, log groups and methods, by the
 * first segment of the route path (a segment's API Gateway resources belong to one stack). A route whose
 * segment is not listed fails the synth; a stack nearing the resource limit is split by moving segments
 * to a new entry (infra/test/stack-size.test.ts fails above RESOURCE_BUDGET).
 */
export const ROUTE_STACKS: Record<string, readonly string[]> = {
  IdentityRoutes: ['user', 'admin', 'dcc', 'signing-key', 'signing-key.pem', 'openapi.json', 'access-tokens'],
  // apart since the audit screen's routes brought IdentityRoutes past the resource budget
  SignOnRoutes: ['company-sign-on', 'passkeys'],
  ResourceRoutes: ['resources'],
  PackageRoutes: ['packages', '{stage}', 'delivery', 'attention'],
};

/** The output naming a worker's dead-letter queue ARN (read by scripts/redrive.ts). */
export const deadLettersOutput = (workerId: string): string => `${pascal(workerId)}DeadLettersArn`;

/** Largest template the tests accept: CloudFormation's limit is 500 resources per template. */
export const RESOURCE_BUDGET = 300;

/** The routes of one route stack, in route-table order. */
export function routesOfStack(name: string, routes: readonly Route[] = ROUTES): Route[] {
  for (const r of routes)
    if (!Object.values(ROUTE_STACKS).some((segments) => segments.includes(topSegment(r))))
      throw new Error(
        `Route ${r.id} (${r.path}): no route stack lists /${topSegment(r)}; add it to ROUTE_STACKS in infra/lib/portal-stack.ts`,
      );
  return routes.filter((r) => ROUTE_STACKS[name]?.includes(topSegment(r)));
}

/**
 * The Firmware Release Portal: one stack and its nested stacks (decision 202). This file is where every
 * area is placed:
 * - the root stack keeps the stateful resources and the parts everything refers to: data (tables,
 *   buckets), keys and secrets, the mail identity, the API shell (RestApi, deployment, stage), the web
 *   front (CloudFront, SPA bucket), the workers and the auditors, and the outputs;
 * - one nested stack per entry of ROUTE_STACKS holds those routes (functions, roles, logs, methods).
 * A new construct goes into the root (`new X(this, …)`) or into a nested stack of its own
 * (`new X(this.area('Monitoring', '…'), 'X', …)`); references from the root into a nested stack become
 * parameters (CDK does that), references back out of a nested stack become its outputs.
 */
export class PortalStack extends Stack {
  readonly data: Data;
  readonly signing: Signing;
  readonly mail: Mail;
  readonly api: Api;
  readonly apiGuard: ApiGuard;
  readonly web: Web;
  readonly workers: Workers;
  readonly generation: Generation;
  readonly auditors: Auditors;
  /** the nested stacks by id */
  readonly nestedStacks = new Map<string, NestedStack>();
  readonly edge: Edge;
  readonly trail: SigningTrail;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: PortalStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.data = new Data(this, 'Data', { config });
    this.signing = new Signing(this, 'Signing', { config });
    this.mail = new Mail(this, 'Mail', { config });
    this.api = new Api(this, 'Api', { config, routes: ROUTES });
    // before any function runs: the stage refuses what did not pass CloudFront (decision 308)
    this.apiGuard = new ApiGuard(this, 'ApiGuard', {
      config,
      stage: this.api.stage,
      originVerifySecret: this.signing.originVerifySecret,
    });
    // The CloudFront API origin depends on the REST API id alone, not on its methods or Lambdas: the
    // functions' APP_URL and the bucket CORS can refer to the distribution without a cycle.
    this.web = new Web(this, 'Web', {
      config,
      restApi: this.api.restApi,
      accessLogs: this.data.accessLogs,
      originVerifySecret: this.signing.originVerifySecret,
    });
    const appUrl = this.web.appOrigin;
    this.generation = new Generation(this, 'Generation', {
      config,
      data: this.data,
      signing: this.signing,
      appUrl,
    });
    this.workers = new Workers(this, 'Workers', { config, data: this.data, mail: this.mail, appUrl });

    for (const name of Object.keys(ROUTE_STACKS))
      this.api.addRoutes(
        this.area(name, `routes under /${ROUTE_STACKS[name]!.join(', /')}`),
        routesOfStack(name),
        {
          config,
          data: this.data,
          signing: this.signing,
          mail: this.mail,
          asyncWorkers: this.generation.functions,
          appUrl,
        },
      );
    const placed = [...this.api.functions.keys()];
    const missing = ROUTES.filter((r) => !placed.includes(r.id));
    if (missing.length > 0)
      throw new Error(`routes in no route stack: ${missing.map((r) => r.id).join(', ')}`);

    // the CloudFront domain always reaches the SPA, the custom domain too when set
    this.data.allowBrowserUploads([
      `https://${this.web.distribution.distributionDomainName}`,
      this.web.appOrigin,
    ]);

    // production security and operations: WAF on CloudFront, CloudTrail on the signing key,
    // the on-call topic behind every alarm and the dashboard (docs/operations.md)
    this.edge = new Edge(this, 'Edge', { config, distribution: this.web.distribution });
    this.trail = new SigningTrail(this, 'Trail', {
      config,
      signingKey: this.signing.packageKey,
      devSigningKey: this.signing.devKey,
      accessLogs: this.data.accessLogs,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      api: this.api,
      apiGuard: this.apiGuard,
      data: this.data,
      generation: this.generation,
      workers: this.workers,
      edge: this.edge,
    });
    for (const rule of [this.trail.keyEvents, this.trail.devKeyEvents])
      rule?.addTarget(new eventsTargets.SnsTopic(this.monitoring.topic));

    this.auditors = new Auditors(this, 'Auditors', {
      stage: config.stage,
      buckets: [this.data.buckets.artefacts, this.data.buckets.audit],
      signingKey: this.signing.packageKey,
      auditTable: this.data.tables.audit,
      stackId: this.stackId,
      sbomBucket: this.data.buckets.resources,
    });
    new CfnOutput(this, 'AuditorRoleArn', {
      value: this.auditors.role.roleArn,
      description: 'Read-only auditor role (docs/infra.md, For auditors)',
    });
    new CfnOutput(this, 'AuditorPolicyArn', {
      value: this.auditors.policy.managedPolicyArn,
      description: 'The auditor permissions as a managed policy, for an IAM user or SSO permission set',
    });
    new CfnOutput(this, 'ArtefactsBucketName', {
      value: this.data.buckets.artefacts.bucketName,
      description: 'Generated packages (versioned), read by auditors',
    });

    new CfnOutput(this, 'AppUrl', { value: this.web.appOrigin, description: 'Open the portal here' });
    new CfnOutput(this, 'DistributionDomainName', {
      value: this.web.distribution.distributionDomainName,
      description: 'Point the custom domain (CNAME or alias) here',
    });
    new CfnOutput(this, 'ApiBaseUrl', {
      value: `${this.web.appOrigin}/${API_STAGE}`,
      description: 'API base as the SPA calls it (same origin)',
    });
    new CfnOutput(this, 'SigningKeyId', {
      value: this.signing.packageKey.keyId,
      description: this.signing.keyImported
        ? 'KMS key that signs packages (imported: signingKeyArn)'
        : 'KMS key that signs packages',
    });
    // an imported key's policy is the operator's: what it must say for the worker to sign (decision 263)
    const keyPolicy = this.signing.operatorKeyPolicy();
    if (keyPolicy !== undefined) {
      new CfnOutput(this, 'SigningRoleArn', {
        value: Lazy.string({ produce: () => this.signing.signerRoleArns.join(',') }),
        description: 'The role that signs packages: the only principal the signing key may let sign',
      });
      new CfnOutput(this, 'SigningKeyPolicyToAdd', {
        value: keyPolicy,
        description:
          'Add these statements to the imported signing key policy (docs/infra.md, Using an existing signing key)',
      });
    }
    // read by `npm run admin:create` to create the first administrator (docs/infra.md)
    new CfnOutput(this, 'UsersTableName', {
      value: this.data.tables.users.tableName,
      description: 'Users table (npm run admin:create)',
    });
    new CfnOutput(this, 'SenderIdentity', {
      value: this.mail.senderAddress,
      description: {
        'create-domain': `Sender address; its domain ${config.senderDomain} is verified by the DKIM records (DkimRecord1..3)`,
        'create-address': 'Sender address: confirm the link SES mails to it',
        'adopt-domain': `Sender address, sent with the existing SES identity of ${config.senderDomain}`,
        'adopt-address': 'Sender address, sent with its existing SES identity',
      }[config.sesIdentity],
    });
    // what `npm run audit:verify` reads (docs/infra.md, "Audit trail copy"); admin:create records there too
    new CfnOutput(this, 'AuditTableName', {
      value: this.data.tables.audit.tableName,
      description: 'Audit events (hash-chained): npm run audit:verify, npm run admin:create',
    });
    new CfnOutput(this, 'AuditBucketName', {
      value: this.data.buckets.audit.bucketName,
      description: 'Write-once copy of every audit event (Object Lock)',
    });
    new CfnOutput(this, 'MailDeadLetterQueueUrl', {
      value: this.workers.deadLetterQueues.get('mailOutbox')!.queueUrl,
      description: 'Outbox stream batches the mail worker gave up on',
    });
    this.operatorOutputs();

    // last: every alarm made above notifies the on-call topic
    this.monitoring.wireAlarms();
  }

  /**
   * What `npm run ops:redrive` and the runbooks read instead of names copied by hand (decision 311): every
   * dead-letter queue's ARN by worker (`<Worker>DeadLettersArn`), and the tables the mail redrive writes.
   */
  private operatorOutputs(): void {
    const queues = new Map([...this.workers.deadLetterQueues, ...this.generation.deadLetterQueues]);
    for (const [worker, queue] of queues)
      new CfnOutput(this, deadLettersOutput(worker), {
        value: queue.queueArn,
        description: `Dead-letter queue of ${worker} (npm run ops:redrive; docs/operations.md)`,
      });
    for (const [id, table] of [
      ['OutboxTableName', this.data.tables.outbox],
      ['PackagesTableName', this.data.tables.packages],
    ] as const)
      new CfnOutput(this, id, { value: table.tableName, description: 'npm run ops:redrive' });
  }

  /** A nested stack of this stack (one per area; its template is an asset of this one). */
  area(id: string, what: string): NestedStack {
    const existing = this.nestedStacks.get(id);
    if (existing) return existing;
    const nested = new NestedStack(this, id, {
      description: `Firmware Release Portal (${this.stackName}): ${what}`,
    });
    this.nestedStacks.set(id, nested);
    return nested;
  }
}
