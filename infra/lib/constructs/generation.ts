import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteUses } from '../../../shared/api/routes';
import { ASYNC_WORKERS, type AsyncWorker, workerFile } from '../../../shared/api/workers';
import { pascal } from '../construct-id';
import { type PortalConfig, REPO_ROOT } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';
import { lambdaCode } from './api';
import type { Data } from './data';
import { usesFunction } from './grant-uses';
import type { Signing } from './signing';
import { acknowledgeWorkerRuntime, anyAboveZeroAlarm, deadLetterQueue } from './worker-queues';

export interface GenerationProps {
  config: PortalConfig;
  data: Data;
  signing: Signing;
  /** https origin of the portal, for the links in the mails the workers commit (APP_URL) */
  appUrl: string;
}

/**
 * The asynchronous workers of shared/api/workers.ts (decision 160): per row a Lambda invoked with
 * InvocationType Event by the routes whose `uses.invoke` names it (they get lambda:InvokeFunction on it
 * alone), an event invoke config (retries, maximum event age) whose on-failure destination is an
 * encrypted SQS queue, and the row's failure function fed by that queue (it returns the package with the
 * reason). What the failure function cannot handle goes to a dead-letter queue with an alarm; an alarm
 * also tells operators of every failed generation.
 */
export class Generation extends Construct {
  readonly functions = new Map<string, NodejsFunction>();
  readonly failureFunctions = new Map<string, NodejsFunction>();
  readonly failureQueues = new Map<string, sqs.Queue>();
  readonly deadLetterQueues = new Map<string, sqs.Queue>();

  constructor(scope: Construct, id: string, props: GenerationProps) {
    super(scope, id);
    for (const w of ASYNC_WORKERS) this.worker(w, props);
    acknowledgeWorkerRuntime(this, 'The generation workers');
  }

  /** A function of this construct with its own role and log group, granted what `uses` says. */
  private fn(
    scope: Construct,
    file: string,
    uses: RouteUses,
    props: GenerationProps,
    opts: { description: string; memoryMb: number; timeoutSeconds: number },
  ): NodejsFunction {
    const { config, data, signing, appUrl } = props;
    return usesFunction(scope, {
      config,
      code: lambdaCode(join(REPO_ROOT, 'lambdas', 'workers', `${file}.ts`), config.bundleCache),
      roleDescription: opts.description,
      description: opts.description,
      memorySize: opts.memoryMb,
      timeout: Duration.seconds(opts.timeoutSeconds),
      uses,
      targets: { data, signing, appUrl },
      grant: {
        grantee: opts.description,
        objectKeysReason: `${opts.description}: objects under keys made at run time from an id (packages/<id>/…, resources/<id>/…, staging/<uploadId>/…), in this one bucket, with the actions listed one by one.`,
      },
    });
  }

  private worker(w: AsyncWorker, props: GenerationProps): void {
    const removalPolicy = statefulRemovalPolicy(props.config);
    const scope = new Construct(this, pascal(w.id));
    const fn = this.fn(scope, workerFile(w.id), w.uses, props, {
      description: `Asynchronous worker ${w.id}: ${w.summary}`,
      memoryMb: w.memoryMb,
      timeoutSeconds: w.timeoutSeconds,
    });

    // what the failure function itself gives up on
    const dlq = deadLetterQueue(scope, removalPolicy, `the dead-letter queue of the ${w.id} failure queue`);
    // Lambda's on-failure destination: the event and the last error, after the last retry
    const failures = new sqs.Queue(scope, 'Failures', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.seconds(w.failure.timeoutSeconds * 6),
      deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
      removalPolicy,
    });
    fn.configureAsyncInvoke({
      retryAttempts: w.retryAttempts,
      maxEventAge: Duration.seconds(w.maxEventAgeSeconds),
      onFailure: new SqsDestination(failures),
    });

    const failScope = new Construct(this, pascal(w.failure.id));
    const failFn = this.fn(failScope, workerFile(w.failure.id), w.failure.uses, props, {
      description: `Failure handler ${w.failure.id}: ${w.failure.summary}`,
      memoryMb: 256,
      timeoutSeconds: w.failure.timeoutSeconds,
    });
    failFn.addEventSource(new SqsEventSource(failures, { batchSize: 10, reportBatchItemFailures: true }));

    anyAboveZeroAlarm(
      scope,
      'FailedGenerationsAlarm',
      `Runs of ${w.id} that failed after every retry (${w.failedRunMeans}; see docs/infra.md)`,
      failures.metricNumberOfMessagesSent({ period: Duration.minutes(5) }),
    );
    anyAboveZeroAlarm(
      scope,
      'DeadLettersAlarm',
      `Failures of ${w.id} the failure handler ${w.failure.id} could not record (see docs/infra.md)`,
      dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
    );

    this.functions.set(w.id, fn);
    this.failureFunctions.set(w.failure.id, failFn);
    this.failureQueues.set(w.id, failures);
    this.deadLetterQueues.set(w.id, dlq);
  }
}
