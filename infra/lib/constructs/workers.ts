import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type StreamWorker, WORKERS, workerFile } from '../../../shared/api/workers';
import { pascal } from '../construct-id';
import { type PortalConfig, REPO_ROOT } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';
import { lambdaCode } from './api';
import type { Data } from './data';
import { usesFunction } from './grant-uses';
import type { Mail } from './mail';
import { acknowledgeWorkerRuntime, anyAboveZeroAlarm, deadLetterQueue } from './worker-queues';

export interface WorkersProps {
  config: PortalConfig;
  data: Data;
  mail: Mail;
  /** https origin of the portal, for the links in the mails the workers send (APP_URL) */
  appUrl: string;
}

/**
 * The stream workers of shared/api/workers.ts: per row one Lambda with its own role (grants from the
 * row's `uses`, as for routes), an event source mapping on the source table's stream (INSERTs of the
 * row's kind only; partial batch responses, bisect on error, bounded retries and record age) and an
 * encrypted SQS queue that receives what the mapping finally gives up, with an alarm on it.
 */
export class Workers extends Construct {
  readonly functions = new Map<string, NodejsFunction>();
  readonly deadLetterQueues = new Map<string, sqs.Queue>();

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    for (const worker of WORKERS) this.worker(worker, props);
    acknowledgeWorkerRuntime(this, 'The workers');
  }

  private worker(w: StreamWorker, props: WorkersProps): void {
    const { config, data, mail, appUrl } = props;
    const scope = new Construct(this, pascal(w.id));
    const removalPolicy = statefulRemovalPolicy(config);
    const fn = usesFunction(scope, {
      config,
      code: lambdaCode(join(REPO_ROOT, 'lambdas', 'workers', `${workerFile(w.id)}.ts`), config.bundleCache),
      roleDescription: `Stream worker ${w.id}: ${w.summary}`,
      description: `Stream worker ${w.id} (${w.source} table stream)`,
      memorySize: 256,
      timeout: Duration.seconds(w.timeoutSeconds),
      uses: w.uses,
      targets: { data, mail, appUrl },
      grant: {
        grantee: `Worker ${w.id}`,
        // stream workers read and write items by key (their records name them): no index Query
        tableIndexes: false,
        objectKeysReason: `Worker ${w.id} writes one object per audit event under keys made from the event's subject and sequence number (events/<kind>/<id>/<seq>.json), in this one bucket, with PutObject only.`,
      },
    });
    const role = fn.role!;

    const dlq = deadLetterQueue(
      scope,
      removalPolicy,
      `the on-failure destination of the ${w.id} event source mapping (a dead-letter queue for stream batches)`,
    );

    const table = data.tables[w.source];
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: w.batchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: w.retryAttempts,
        maxRecordAge: Duration.seconds(w.maxRecordAgeSeconds),
        // one item per partition key: more batches per shard at once keep one failing mail from holding up others
        parallelizationFactor: w.id === 'mailOutbox' ? 10 : 1,
        onFailure: new SqsDlq(dlq),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { kind: { S: lambda.FilterRule.isEqual(w.kind) } } },
          }),
        ],
      }),
    );
    // ListStreams has no resource-level permissions: the event source's grant names '*'
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: `dynamodb:ListStreams supports no resource-level permissions (the DynamoDB event source mapping of ${w.id} needs it); every other stream action is granted on the ${w.source} table's stream only.`,
    });

    anyAboveZeroAlarm(
      scope,
      'DeadLettersAlarm',
      `Records the ${w.id} worker gave up on (see docs/infra.md)`,
      dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
    );

    this.functions.set(w.id, fn);
    this.deadLetterQueues.set(w.id, dlq);
  }
}
