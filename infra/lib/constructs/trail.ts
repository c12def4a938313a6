import { Duration } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { PortalConfig } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';

export interface SigningTrailProps {
  config: PortalConfig;
  /** the release key: signs packages for devices in the field */
  signingKey: kms.IKey;
  /** the development key (decision 295): watched like the release key, with alerts of its own (decision 350) */
  devSigningKey: kms.IKey;
  /** where the trail bucket's own access logs go */
  accessLogs: s3.IBucket;
}

/** KMS events on the signing key an operator must hear of (docs/operations.md, "Signing key changed"). */
export const KEY_ALERT_EVENTS = [
  'PutKeyPolicy',
  'ScheduleKeyDeletion',
  'CancelKeyDeletion',
  'DisableKey',
  'EnableKey',
  'CreateGrant',
] as const;

/**
 * CloudTrail for the package signing keys (docs/decisions/206): every use of a key (Sign, GetPublicKey)
 * and every change of it is a KMS management event. Both keys, release and development, raise the same
 * alerts under names of their own, so on-call reads which key it was from the alarm's name (decision 350). Either the stack's own trail (management events,
 * read and write, into a private bucket with file validation and a CloudWatch log group, on which an
 * alarm watches the key's administration and refused calls), or an existing trail named by config.
 *
 * The stack's own trail comes with the deploy after the first success (`firstDeployDone`, decision 307):
 * it writes into its bucket every few minutes, and a create that failed after that could not delete the
 * bucket (not empty) when it rolls back. CloudTrail's Event history holds the key's first events meanwhile.
 * A trail cannot select management events by service (only KMS or RDS Data events can be left out), so
 * where an organisation or account trail already records the region, name it (`existingTrailArn`): the
 * stack's own would be a paid second copy (`npm run deploy:check` names such a trail).
 */
export class SigningTrail extends Construct {
  /** the trail that records the key's use (created here or the configured one); none before the first success */
  readonly trailArn?: string;
  /** created only when the stack has its own trail */
  readonly trail?: cloudtrail.Trail;
  readonly bucket?: s3.Bucket;
  readonly logGroup?: logs.LogGroup;
  /** key policy changes, deletion scheduling, disabling, grants, and refused calls on the release key */
  readonly keyAlarm?: cloudwatch.Alarm;
  /** the same on the development key (decision 350) */
  readonly devKeyAlarm?: cloudwatch.Alarm;
  /**
   * the same events when an existing trail records them (`existingTrailArn`): the stack has no log group
   * of that trail to filter, so an EventBridge rule on the region's CloudTrail events watches the key; the
   * stack points it at the on-call topic (decision 345)
   */
  readonly keyEvents?: events.Rule;
  /** the same rule on the development key (decision 350) */
  readonly devKeyEvents?: events.Rule;

  constructor(scope: Construct, id: string, props: SigningTrailProps) {
    super(scope, id);
    const { config } = props;
    if (config.existingTrailArn) {
      this.trailArn = config.existingTrailArn;
      this.keyEvents = keyEventsRule(this, 'SigningKeyEvents', 'Package signing key', props.signingKey);
      this.devKeyEvents = keyEventsRule(
        this,
        'DevSigningKeyEvents',
        'Development package signing key',
        props.devSigningKey,
      );
      return;
    }
    if (!config.firstDeployDone) return;
    const removalPolicy = statefulRemovalPolicy(config);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/trail/',
      removalPolicy,
    });
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy,
    });
    this.trail = new cloudtrail.Trail(this, 'Trail', {
      bucket: this.bucket,
      // KMS Sign and GetPublicKey are read-only management events: ALL records them
      managementEvents: cloudtrail.ReadWriteType.ALL,
      includeGlobalServiceEvents: false,
      isMultiRegionTrail: false,
      enableFileValidation: true,
      sendToCloudWatchLogs: true,
      cloudWatchLogGroup: this.logGroup,
    });
    this.trailArn = this.trail.trailArn;

    const logGroup = this.logGroup;
    const alarm = (id: 'SigningKey' | 'DevSigningKey', what: string, key: kms.IKey) =>
      keyAlarm(this, { logGroup, namespace: `FirmwareReleasePortal/${config.stage}`, id, what, key });
    this.keyAlarm = alarm('SigningKey', 'The package signing key', props.signingKey);
    this.devKeyAlarm = alarm('DevSigningKey', 'The development package signing key', props.devSigningKey);
  }
}

/**
 * An alarm on the trail's log group: one key's administration (KEY_ALERT_EVENTS) or a call on it refused.
 * `<id>Events` is the metric filter, `<id>Alarm` the alarm; the metric is the key's own.
 */
function keyAlarm(
  scope: Construct,
  o: { logGroup: logs.ILogGroup; namespace: string; id: string; what: string; key: kms.IKey },
): cloudwatch.Alarm {
  const { id, key } = o;
  const names = KEY_ALERT_EVENTS.map((e) => `($.eventName = "${e}")`).join(' || ');
  const filter = new logs.MetricFilter(scope, `${id}Events`, {
    logGroup: o.logGroup,
    filterPattern: logs.FilterPattern.literal(
      `{ ($.eventSource = "kms.amazonaws.com") && ($.resources[0].ARN = "${key.keyArn}") && (${names} || ($.errorCode = "AccessDenied*")) }`,
    ),
    metricNamespace: o.namespace,
    metricName: `${id}Alerts`,
    metricValue: '1',
    defaultValue: 0,
  });
  return new cloudwatch.Alarm(scope, `${id}Alarm`, {
    alarmDescription: `${o.what} was changed (policy, deletion, enabled state, grant) or a call on it was refused (see docs/operations.md, "Signing key changed")`,
    metric: filter.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * CloudTrail's events on the key as EventBridge delivers them from any trail that records the region
 * (decision 345): the KEY_ALERT_EVENTS, or any call on the key refused. Refused Sign calls are read-only
 * management events, which a rule receives only in the state that asks for all of them.
 */
function keyEventsRule(scope: Construct, id: string, what: string, key: kms.IKey): events.Rule {
  const rule = new events.Rule(scope, id, {
    description: `${what} changed or a call on it refused (docs/operations.md, "Signing key changed")`,
    eventPattern: {
      source: ['aws.kms'],
      detailType: ['AWS API Call via CloudTrail'],
      detail: {
        eventSource: ['kms.amazonaws.com'],
        resources: { ARN: [key.keyArn] },
        $or: [{ eventName: [...KEY_ALERT_EVENTS] }, { errorCode: [{ prefix: 'AccessDenied' }] }],
      },
    },
  });
  (rule.node.defaultChild as events.CfnRule).state = 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS';
  return rule;
}
