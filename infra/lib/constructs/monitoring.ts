import { Annotations, CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { BUSINESS_METRICS, metricsNamespace } from '../../../shared/api/metrics';
import type { PortalConfig } from '../portal-config';
import { Alarms } from './alarms';
import type { Api } from './api';
import type { ApiGuard } from './api-guard';
import type { Data } from './data';
import { EDGE_REGION, type Edge } from './edge';
import type { Generation } from './generation';
import type { Workers } from './workers';

export interface MonitoringProps {
  config: PortalConfig;
  api: Api;
  apiGuard: ApiGuard;
  data: Data;
  generation: Generation;
  workers: Workers;
  edge: Edge;
}

/** The API answers 5xx this often in 5 minutes, twice in a row: someone must look (docs/operations.md). */
export const API_5XX_THRESHOLD = 5;
/** The oldest outbox record the mail worker is still on, in minutes, for 15 minutes (docs/operations.md). */
export const MAIL_OUTBOX_AGE_MINUTES = 15;

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Operators hear and act (docs/decisions/209 and 311, docs/operations.md): an SNS topic for on-call (the
 * config's alarmEmail subscribed), every CloudWatch alarm of the stack sending ALARM and OK to it (call
 * `wireAlarms` once every construct exists), the API error and mail-outbox-age alarms, the alarms of
 * alarms.ts (throttles, audit copy age, DynamoDB, SES reputation, artefact mismatch, the budget), and one
 * dashboard: API errors and throttles, function errors and throttles, business metrics, generation and
 * verification backlog, dead-letter depth, mail outbox age, and both web ACLs' blocks.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly api5xxAlarm: cloudwatch.Alarm;
  readonly mailAgeAlarm: cloudwatch.Alarm;
  readonly alarms: Alarms;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config } = props;
    const restApi = props.api.restApi;
    const asyncWorkers = props.generation.functions;
    const failureQueues = props.generation.failureQueues;
    const deadLetterQueues = new Map([
      ...props.workers.deadLetterQueues,
      ...props.generation.deadLetterQueues,
    ]);
    const mailWorker = props.workers.functions.get('mailOutbox');
    const auditCopy = props.workers.functions.get('auditCopy');
    if (!mailWorker || !auditCopy) throw new Error('Monitoring needs the mailOutbox and auditCopy workers');
    const stackName = Stack.of(this).stackName;

    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Firmware Release Portal (${config.stage}) alarms`,
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm names, states and metric values only, no user or package data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key only for this would add a key policy to keep without protecting anything secret.',
    });
    if (config.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    else
      Annotations.of(this).addWarningV2(
        'frp:no-alarm-email',
        `No alarmEmail for stage ${config.stage} in infra/stages.ts: alarms go to the SNS topic, but nobody is subscribed (docs/operations.md).`,
      );
    this.alarms = new Alarms(this, 'Alarms', {
      config,
      topic: this.topic,
      tables: props.data.tables,
      auditCopy,
    });

    const mailAge = mailWorker.metric('IteratorAge', { statistic: 'Maximum', period: FIVE_MINUTES });
    this.api5xxAlarm = new cloudwatch.Alarm(this, 'Api5xxAlarm', {
      alarmDescription: `The API answered 5xx (server failure) ${API_5XX_THRESHOLD}+ times in 5 minutes, twice in a row (see docs/operations.md, "API errors")`,
      metric: restApi.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES }),
      threshold: API_5XX_THRESHOLD,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.mailAgeAlarm = new cloudwatch.Alarm(this, 'MailOutboxAgeAlarm', {
      alarmDescription: `The mail worker is on outbox records older than ${MAIL_OUTBOX_AGE_MINUTES} minutes (mails are late; see docs/operations.md, "Mail outbox age")`,
      metric: mailAge,
      threshold: MAIL_OUTBOX_AGE_MINUTES * 60 * 1000,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // every function of this stack (the names start with the stack name), summed
    const allFunctions = (metricName: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SUM(SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" "${stackName}"', 'Sum', 300))`,
        label,
        period: FIVE_MINUTES,
      });
    const asyncMetric = (metricName: string, statistic: string) =>
      [...asyncWorkers].map(([name, fn]) =>
        fn.metric(metricName, { statistic, period: FIVE_MINUTES, label: `${name} ${metricName}` }),
      );

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `frp-${config.stage}`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'API answers (5 min sums): 5xx, 4xx (429 throttles included), all',
        left: [
          restApi.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES, label: '5xx' }),
          restApi.metricClientError({ statistic: 'Sum', period: FIVE_MINUTES, label: '4xx' }),
        ],
        right: [restApi.metricCount({ statistic: 'Sum', period: FIVE_MINUTES, label: 'requests' })],
        leftAnnotations: [{ value: API_5XX_THRESHOLD, label: '5xx alarm' }],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Functions: errors and throttles (all of the stack)',
        left: [allFunctions('Errors', 'errors'), allFunctions('Throttles', 'throttles')],
        right: [
          restApi.metricLatency({ statistic: 'p99', period: FIVE_MINUTES, label: 'API p99 latency (ms)' }),
        ],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Generation and verification backlog: oldest waiting event (ms), runs at once',
        left: asyncMetric('AsyncEventAge', 'Maximum'),
        right: asyncMetric('ConcurrentExecutions', 'Maximum'),
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Failed runs waiting for their failure handler, and dead letters (messages)',
        left: [...failureQueues].map(([name, q]) =>
          q.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, label: `${name} failures` }),
        ),
        right: [...deadLetterQueues].map(([name, q]) =>
          q.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, label: `${name} dead letters` }),
        ),
        width: 12,
      }),
    );
    const namespace = metricsNamespace(config.stage);
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Mail outbox age: oldest record the mail worker is on (ms)',
        left: [mailAge.with({ label: 'mailOutbox iterator age' })],
        leftAnnotations: [{ value: MAIL_OUTBOX_AGE_MINUTES * 60 * 1000, label: 'alarm' }],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title:
          'Business events (5 min sums): packages generated, approvals, signatures, deliveries, failures',
        left: BUSINESS_METRICS.map(
          (metricName) =>
            new cloudwatch.Metric({ namespace, metricName, statistic: 'Sum', period: FIVE_MINUTES }),
        ),
        width: 12,
      }),
    );
    const waf = (webAcl: string, rule: string, region: string | undefined, label: string) =>
      ['BlockedRequests', 'AllowedRequests'].map(
        (metricName) =>
          new cloudwatch.Metric({
            namespace: 'AWS/WAFV2',
            metricName,
            // a CloudFront ACL's metrics (us-east-1) carry no Region dimension; a regional one's do
            dimensionsMap: { WebACL: webAcl, Rule: rule, ...(region ? { Region: region } : {}) },
            region: region ?? EDGE_REGION,
            statistic: 'Sum',
            period: FIVE_MINUTES,
            label: `${label} ${metricName === 'BlockedRequests' ? 'blocked' : 'allowed'}`,
          }),
      );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: `Web ACL at CloudFront (${props.edge.webAclName}, us-east-1): blocked and allowed requests`,
        left: waf(props.edge.webAclName, 'ALL', undefined, 'CloudFront'),
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'API stage web ACL: calls refused before any function (not through CloudFront)',
        left: waf(props.apiGuard.webAcl.name ?? '', 'ALL', Stack.of(this).region, 'API stage'),
        width: 12,
      }),
    );

    new CfnOutput(Stack.of(this), 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'Every alarm notifies this topic (subscribe on-call here; docs/operations.md)',
    });
    new CfnOutput(Stack.of(this), 'DashboardName', {
      value: this.dashboard.dashboardName,
      description: 'The operations dashboard (docs/operations.md)',
    });
  }

  /** Puts the topic behind every CloudWatch alarm of the stack, nested stacks included (ALARM and back to OK). */
  wireAlarms(): void {
    const action = new SnsAction(this.topic);
    for (const c of Stack.of(this).node.findAll())
      if (c instanceof cloudwatch.Alarm) {
        c.addAlarmAction(action);
        c.addOkAction(action);
      }
  }
}
