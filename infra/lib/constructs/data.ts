import { Aws, Duration, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { BucketName, TableName } from '../../../shared/api/routes';
import { pascal } from '../construct-id';
import { BUCKETS, type KeyDef, TABLES } from '../definitions';
import type { PortalConfig } from '../portal-config';
import { ALWAYS_KEPT, statefulRemovalPolicy } from '../removal';

export interface DataProps {
  config: PortalConfig;
}

const attr = (k: KeyDef): dynamodb.Attribute => ({
  name: k.name,
  type: k.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

/** Buckets the browser reaches directly with presigned URLs; they get fixed names (see bucketName). */
export const BROWSER_BUCKETS: readonly BucketName[] = ['resources', 'artefacts'];

/**
 * DynamoDB tables and S3 buckets, built from infra/lib/definitions.ts (the local stack reads the same
 * file), plus the bucket that receives S3 and CloudFront access logs.
 */
export class Data extends Construct {
  readonly tables: Record<TableName, dynamodb.Table>;
  readonly buckets: Record<BucketName, s3.Bucket>;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const { config } = props;
    const removalPolicy = statefulRemovalPolicy(config);

    this.tables = {} as Record<TableName, dynamodb.Table>;
    for (const [name, def] of Object.entries(TABLES) as [TableName, (typeof TABLES)[TableName]][]) {
      const table = new dynamodb.Table(this, `${pascal(name)}Table`, {
        partitionKey: attr(def.partitionKey),
        sortKey: def.sortKey ? attr(def.sortKey) : undefined,
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        // off until the stage's first deploy has succeeded: a rolled-back create must be able to delete
        // the table (decision 200; infra/stages.ts firstDeployDone)
        deletionProtection: config.tableDeletionProtection,
        timeToLiveAttribute: def.ttlAttribute,
        stream: def.stream ? dynamodb.StreamViewType.NEW_IMAGE : undefined,
        removalPolicy,
      });
      for (const index of def.indexes)
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attr(index.partitionKey),
          sortKey: index.sortKey ? attr(index.sortKey) : undefined,
          ...(index.include
            ? { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] }
            : { projectionType: dynamodb.ProjectionType.ALL }),
        });
      this.tables[name] = table;
    }

    this.accessLogs = new s3.Bucket(this, 'AccessLogsBucket', {
      ...secureBucket(),
      // CloudFront standard logging writes with object ACLs; S3 server access logs use the bucket policy.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(400) }],
      removalPolicy,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the access-log bucket that the other buckets and CloudFront log into; logging it into itself would loop.',
    });
    if (!config.firstDeployDone)
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-S1',
        reason: FIRST_DEPLOY_LOGGING_REASON,
      });

    this.buckets = {} as Record<BucketName, s3.Bucket>;
    for (const [name, def] of Object.entries(BUCKETS) as [BucketName, (typeof BUCKETS)[BucketName]][]) {
      this.buckets[name] = new s3.Bucket(this, `${pascal(name)}Bucket`, {
        ...secureBucket(),
        bucketName: BROWSER_BUCKETS.includes(name) ? bucketName(config.stage, name) : undefined,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        versioned: def.versioned,
        objectLockEnabled: def.objectLock || undefined,
        objectLockDefaultRetention: def.objectLock
          ? s3.ObjectLockRetention.compliance(Duration.days(config.auditRetentionDays))
          : undefined,
        ...accessLogging(config, this.accessLogs, `s3/${name}/`),
        lifecycleRules: lifecycleRules(name, config),
        // Objects under compliance-mode Object Lock cannot be deleted, so CloudFormation could never
        // empty that bucket: it is always retained.
        removalPolicy: def.objectLock ? ALWAYS_KEPT : removalPolicy,
      });
    }
  }

  /**
   * Lets the SPA PUT presigned uploads straight into the resources bucket, and GET presigned downloads of
   * large packages from the artefacts bucket (read with progress by XHR), and nothing more. `appOrigins`:
   * every https origin the SPA is served from (the CloudFront domain, and the custom domain when set).
   */
  allowBrowserUploads(appOrigins: readonly string[]): void {
    const allowedOrigins = [...new Set(appOrigins)];
    this.buckets.resources.addCorsRule({
      allowedOrigins,
      allowedMethods: [s3.HttpMethods.PUT],
      allowedHeaders: ['content-type', 'content-md5', 'x-amz-*'],
      // a multipart upload's client reads each part's ETag to complete it
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });
    this.buckets.artefacts.addCorsRule({
      allowedOrigins,
      allowedMethods: [s3.HttpMethods.GET],
      maxAge: 3000,
    });
  }
}

/**
 * Why a stage before its first success logs nothing into the access-log bucket (cdk-nag S1, CFR3): S3 and
 * CloudFront deliver logs minutes to hours after the requests, also while a create is still running, and a
 * create that fails and rolls back cannot delete a bucket that is not empty (decision 307).
 */
export const FIRST_DEPLOY_LOGGING_REASON =
  "Access logging is switched on by the deploy after the stage's first success (infra/stages.ts firstDeployDone; decision 307): logs delivered into the access-log bucket during a create that then fails would keep its rollback from deleting that bucket, and the retry would need a manual clean-up. A throw-away stage that never sets firstDeployDone keeps no access logs.";

/** S3 server access logs into the access-log bucket, from the deploy after the first success on. */
export function accessLogging(
  config: Pick<PortalConfig, 'firstDeployDone'>,
  target: s3.IBucket,
  prefix: string,
): Pick<s3.BucketProps, 'serverAccessLogsBucket' | 'serverAccessLogsPrefix'> {
  return config.firstDeployDone ? { serverAccessLogsBucket: target, serverAccessLogsPrefix: prefix } : {};
}

/**
 * What expires, and when (decision 313; docs/infra.md "Cost"): parts of abandoned multipart uploads
 * everywhere; in the resources bucket the uploads nobody confirmed (staging/, decision 040); in the
 * versioned artefacts bucket the versions a later write or a deletion replaced (the current package files
 * never expire). The audit bucket keeps everything: Object Lock.
 */
export function lifecycleRules(name: BucketName, config: PortalConfig): s3.LifecycleRule[] {
  const rules: s3.LifecycleRule[] = [
    { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(2) },
  ];
  if (name === 'resources')
    rules.push({
      id: 'expire-unconfirmed-uploads',
      prefix: 'staging/',
      expiration: Duration.days(config.stagingUploadDays),
    });
  if (name === 'artefacts')
    rules.push(
      {
        id: 'expire-replaced-packages',
        noncurrentVersionExpiration: Duration.days(config.artefactNoncurrentDays),
      },
      // a deleted package leaves a delete marker; once its old versions expired, the marker goes too
      { id: 'remove-expired-delete-markers', expiredObjectDeleteMarker: true },
    );
  return rules;
}

/** Settings every bucket shares: private, encrypted, TLS 1.2+ only. */
function secureBucket(): s3.BucketProps {
  return {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
  };
}

/**
 * Fixed names for the buckets the browser talks to: the CloudFront CSP must list their hosts and the
 * resources bucket's CORS must list the CloudFront origin; with generated names that is a dependency
 * cycle (docs/decisions/012-named-browser-buckets.md).
 */
export function bucketName(stage: string, name: BucketName): string {
  return `frp-${stage}-${name}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}
