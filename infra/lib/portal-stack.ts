import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { API_STAGE } from '../../shared/api/routes';
import { Api } from './constructs/api';
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

/** The Firmware Release Portal in one stack: data, keys, mail, the API and the web front. */
export class PortalStack extends Stack {
  readonly data: Data;
  readonly signing: Signing;
  readonly mail: Mail;
  readonly api: Api;
  readonly web: Web;
  readonly workers: Workers;
  readonly generation: Generation;
  readonly auditors: Auditors;
  readonly edge: Edge;
  readonly trail: SigningTrail;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: PortalStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.data = new Data(this, 'Data', { config });
    this.signing = new Signing(this, 'Signing', { config });
    this.mail = new Mail(this, 'Mail', { config });
    this.generation = new Generation(this, 'Generation', { config, data: this.data, signing: this.signing });
    this.api = new Api(this, 'Api', {
      config,
      data: this.data,
      signing: this.signing,
      mail: this.mail,
      asyncWorkers: this.generation.functions,
    });
    this.web = new Web(this, 'Web', {
      config,
      restApi: this.api.restApi,
      accessLogs: this.data.accessLogs,
      originVerifySecret: this.signing.originVerifySecret,
    });
    this.workers = new Workers(this, 'Workers', { config, data: this.data, mail: this.mail });

    // Known only now that the distribution exists; neither edge closes a cycle (the CloudFront API
    // origin depends on the REST API id alone, not on its methods or Lambdas).
    this.api.setAppUrl(this.web.appOrigin);
    // the CloudFront domain always reaches the SPA, the custom domain too when set
    this.data.allowBrowserUploads([
      `https://${this.web.distribution.distributionDomainName}`,
      this.web.appOrigin,
    ]);

    // production security and operations (issue 24): WAF on CloudFront, CloudTrail on the signing key,
    // the on-call topic behind every alarm and the dashboard (docs/operations.md)
    this.edge = new Edge(this, 'Edge', { config, distribution: this.web.distribution });
    this.trail = new SigningTrail(this, 'Trail', {
      config,
      signingKey: this.signing.packageKey,
      accessLogs: this.data.accessLogs,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      api: this.api,
      generation: this.generation,
      workers: this.workers,
      edge: this.edge,
    });

    this.auditors = new Auditors(this, 'Auditors', {
      stage: config.stage,
      buckets: [this.data.buckets.artefacts, this.data.buckets.audit],
      signingKey: this.signing.packageKey,
      auditTable: this.data.tables.audit,
      stackId: this.stackId,
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
      description: 'KMS key that signs packages',
    });
    // read by `npm run admin:create` to create the first administrator (docs/infra.md)
    new CfnOutput(this, 'UsersTableName', {
      value: this.data.tables.users.tableName,
      description: 'Users table (npm run admin:create)',
    });
    new CfnOutput(this, 'SenderIdentity', {
      value: this.mail.senderAddress,
      description: 'SES identity to verify (link mailed by SES)',
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

    // last: every alarm made above notifies the on-call topic
    this.monitoring.wireAlarms();
  }
}
