import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** What the stream workers (workers.ts) and the asynchronous workers (generation.ts) build alike. */

/** Both worker constructs run on LAMBDA_RUNTIME; `what` names them in the acknowledgement. */
export function acknowledgeWorkerRuntime(scope: Construct, what: string): void {
  Validations.of(scope).acknowledge({
    id: 'AwsSolutions-L1',
    reason: `${what} run on LAMBDA_RUNTIME (nodejs22.x), the runtime every Lambda of the app is built and tested for (esbuild target node22); it is supported by Lambda. Moving to nodejs24.x is the same one-line change as for the routes.`,
  });
}

/** An encrypted queue (14 days) at the end of a worker's line: `endOf` says what it receives. */
export function deadLetterQueue(scope: Construct, removalPolicy: RemovalPolicy, endOf: string): sqs.Queue {
  const dlq = new sqs.Queue(scope, 'DeadLetters', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy,
  });
  Validations.of(dlq).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is ${endOf}; a dead-letter queue of its own would only move the same records one step further.`,
  });
  return dlq;
}

/** An alarm that fires as soon as the metric (summed over five minutes) is above zero. */
export function anyAboveZeroAlarm(
  scope: Construct,
  id: string,
  alarmDescription: string,
  metric: cloudwatch.IMetric,
): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription,
    metric,
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}
