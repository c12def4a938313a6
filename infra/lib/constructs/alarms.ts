import { Duration, Stack } from 'aws-cdk-lib';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { metricsNamespace } from '../../../shared/api/metrics';
import type { TableName } from '../../../shared/api/routes';
import { pascal } from '../construct-id';
import type { PortalConfig } from '../portal-config';

export interface AlarmsProps {
  config: PortalConfig;
  topic: sns.Topic;
  tables: Record<TableName, dynamodb.Table>;
  /** the stream worker that copies audit events into the Object Lock bucket */
  auditCopy: NodejsFunction;
}

/** The audit copy worker is this far behind its stream (which keeps records 24 h): act long before. */
export const AUDIT_COPY_AGE_HOURS = 1;
/** SES reviews an account at a 5 % bounce rate and 0.1 % complaint rate (and pauses it at 10 % and 0.5 %). */
export const SES_BOUNCE_RATE = 0.05;
export const SES_COMPLAINT_RATE = 0.001;
/** Budget notifications: a forecast above 80 % of the month's budget, actual spend above 100 %. */
export const BUDGET_FORECAST_PERCENT = 80;

/** The operations a DynamoDB system-error alarm sums (CloudWatch alarms take at most 10 metrics). */
const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
  dynamodb.Operation.TRANSACT_GET_ITEMS,
];

const FIVE_MINUTES = Duration.minutes(5);

/**
 * The alarms on-call needs beyond the API's and the queues' own (decision 311; runbooks in
 * docs/operations.md): Lambda throttles, the audit copy falling behind its stream, DynamoDB throttles and
 * system errors per table, SES reputation (bounce and complaint rates: SES pauses sending), a stored
 * artefact that does not match its record, and the account's monthly AWS Budget. Every CloudWatch alarm
 * here is put behind the on-call topic by Monitoring.wireAlarms; the budget notifies the topic itself.
 */
export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly budget: budgets.CfnBudget;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const { config, topic } = props;
    const alarm = (alarmId: string, p: cloudwatch.AlarmProps) => {
      const a = new cloudwatch.Alarm(this, alarmId, {
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...p,
      });
      this.alarms.push(a);
      return a;
    };

    // CloudWatch alarms cannot search: the account's own Throttles metric sums every function of the
    // region, which for a portal account are this stack's (decision 311)
    alarm('LambdaThrottlesAlarm', {
      alarmDescription:
        'Lambda throttled invocations in this account and region (users see 429/502; see docs/operations.md, "Lambda throttles")',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    alarm('AuditCopyAgeAlarm', {
      alarmDescription: `The audit copy worker is on audit events older than ${AUDIT_COPY_AGE_HOURS} h; its stream keeps them 24 h, after which the Object Lock copy would miss them (see docs/operations.md, "Audit copy behind")`,
      metric: props.auditCopy.metric('IteratorAge', { statistic: 'Maximum', period: FIVE_MINUTES }),
      threshold: AUDIT_COPY_AGE_HOURS * 3600 * 1000,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });

    for (const [name, table] of Object.entries(props.tables) as [TableName, dynamodb.Table][]) {
      const scope = new Construct(this, `${pascal(name)}Table`);
      const throttles = new cloudwatch.MathExpression({
        expression: 'r + w',
        usingMetrics: {
          r: table.metric('ReadThrottleEvents', { statistic: 'Sum', period: FIVE_MINUTES }),
          w: table.metric('WriteThrottleEvents', { statistic: 'Sum', period: FIVE_MINUTES }),
        },
        label: `${name} throttled requests`,
        period: FIVE_MINUTES,
      });
      const throttleAlarm = new cloudwatch.Alarm(scope, 'ThrottlesAlarm', {
        alarmDescription: `DynamoDB throttled reads or writes of the ${name} table (see docs/operations.md, "DynamoDB throttles or errors")`,
        metric: throttles,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      const errorAlarm = new cloudwatch.Alarm(scope, 'SystemErrorsAlarm', {
        alarmDescription: `DynamoDB answered 500 (system errors) to calls on the ${name} table (see docs/operations.md, "DynamoDB throttles or errors")`,
        metric: table.metricSystemErrorsForOperations({
          operations: TABLE_OPERATIONS,
          statistic: 'Sum',
          period: FIVE_MINUTES,
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      this.alarms.push(throttleAlarm, errorAlarm);
    }

    const ses = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName,
        statistic: 'Maximum',
        period: Duration.hours(1),
      });
    alarm('SesBounceRateAlarm', {
      alarmDescription: `SES bounce rate of the account at ${SES_BOUNCE_RATE * 100} % or more: SES reviews the account and at 10 % pauses sending (see docs/operations.md, "SES reputation")`,
      metric: ses('Reputation.BounceRate'),
      threshold: SES_BOUNCE_RATE,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    alarm('SesComplaintRateAlarm', {
      alarmDescription: `SES complaint rate of the account at ${SES_COMPLAINT_RATE * 100} % or more: SES reviews the account and at 0.5 % pauses sending (see docs/operations.md, "SES reputation")`,
      metric: ses('Reputation.ComplaintRate'),
      threshold: SES_COMPLAINT_RATE,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    alarm('ArtefactMismatchAlarm', {
      alarmDescription:
        'A stored package file did not match its record (digest or size) when it was read (see docs/operations.md, "Artefact mismatch")',
      metric: new cloudwatch.Metric({
        namespace: metricsNamespace(config.stage),
        metricName: 'ArtefactMismatch',
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    // AWS Budgets publishes to the topic itself (not through CloudWatch): the topic must let it
    topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'BudgetsPublish',
        principals: [new iam.ServicePrincipal('budgets.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    const notify = (notificationType: 'ACTUAL' | 'FORECASTED', threshold: number) => ({
      notification: {
        notificationType,
        comparisonOperator: 'GREATER_THAN',
        threshold,
        thresholdType: 'PERCENTAGE',
      },
      subscribers: [{ subscriptionType: 'SNS', address: topic.topicArn }],
    });
    this.budget = new budgets.CfnBudget(this, 'MonthlyBudget', {
      budget: {
        budgetName: `frp-${config.stage}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: config.monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [notify('FORECASTED', BUDGET_FORECAST_PERCENT), notify('ACTUAL', 100)],
    });
    // the topic policy must exist before AWS Budgets checks it can publish
    const policy = topic.node.tryFindChild('Policy');
    if (policy) this.budget.node.addDependency(policy);
  }
}
