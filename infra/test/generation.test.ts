import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes';
import { ASYNC_WORKERS, asyncWorkerEnv } from '../../shared/api/workers';
import { type Synthesized, synthPortal } from './support/synth';
import { actionsOf, type Json, resourcesOfType, statementsOfFunction } from './support/template';

/** Generation off the request path (decision 160): worker, async config, failure queue and DLQ, grants. */
let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

const resources = (type: string) => resourcesOfType(s, type);
const props = (id: string) => s.json.Resources[id]!.Properties as Json;
const workerId = (id: string) => s.logicalId(s.stack.generation.functions.get(id)!);
const failureId = (id: string) => s.logicalId(s.stack.generation.failureFunctions.get(id)!);
const routeFnId = (id: string) => s.logicalId(s.stack.api.functions.get(id)!);

const statementsOfFn = (fnLogicalId: string) => statementsOfFunction(s, fnLogicalId);
const allActions = (fn: string) => new Set(statementsOfFn(fn).flatMap(actionsOf));
const refersTo = (value: unknown, logicalId: string) => JSON.stringify(value).includes(`"${logicalId}"`);

describe('generateArtefact worker', () => {
  const w = ASYNC_WORKERS[0]!;

  it('is invoked asynchronously with bounded retries and event age, failures going to an SQS queue', () => {
    const configs = resources('AWS::Lambda::EventInvokeConfig').filter(([, p]) =>
      refersTo(p.FunctionName, workerId(w.id)),
    );
    expect(configs).toHaveLength(1);
    const c = configs[0]![1];
    expect(c.MaximumRetryAttempts).toBe(2);
    expect(c.MaximumEventAgeInSeconds).toBe(3600);
    const queue = s.logicalId(s.stack.generation.failureQueues.get(w.id)!);
    expect(refersTo((c.DestinationConfig as Json).OnFailure, queue)).toBe(true);
    // the worker may send to that queue (the destination's grant)
    expect(
      statementsOfFn(workerId(w.id)).some(
        (st) => actionsOf(st).includes('sqs:SendMessage') && refersTo(st.Resource, queue),
      ),
    ).toBe(true);
  });

  it('runs with Lambda’s 15 minutes and the memory of the row', () => {
    const p = props(workerId(w.id));
    expect([p.Timeout, p.MemorySize]).toEqual([900, 3008]);
  });

  it('feeds the failure queue to the failure handler, with partial batch responses; the queue has a DLQ; both have alarms', () => {
    const queue = s.logicalId(s.stack.generation.failureQueues.get(w.id)!);
    const dlq = s.logicalId(s.stack.generation.deadLetterQueues.get(w.id)!);
    const mappings = resources('AWS::Lambda::EventSourceMapping').filter(([, p]) =>
      refersTo(p.FunctionName, failureId(w.failure.id)),
    );
    expect(mappings).toHaveLength(1);
    expect(refersTo(mappings[0]![1].EventSourceArn, queue)).toBe(true);
    expect(mappings[0]![1].FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const q = props(queue);
    expect(q.SqsManagedSseEnabled).toBe(true);
    expect(refersTo((q.RedrivePolicy as Json).deadLetterTargetArn, dlq)).toBe(true);
    expect((q.RedrivePolicy as Json).maxReceiveCount).toBe(5);
    const alarms = resources('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('Generation'));
    expect(alarms.some(([, a]) => refersTo(a.Dimensions, queue))).toBe(true);
    expect(alarms.some(([, a]) => refersTo(a.Dimensions, dlq))).toBe(true);
  });

  it('grants the worker its tables, the resources read, the artefacts write and delete (with abort), and kms:Sign; no users table, no SES', () => {
    const actions = allActions(workerId(w.id));
    expect(actions.has('kms:Sign')).toBe(true);
    expect(actions.has('s3:AbortMultipartUpload')).toBe(true);
    expect([...actions].some((a) => a.startsWith('ses:'))).toBe(false);
    const users = s.logicalId(s.stack.data.tables.users);
    expect(statementsOfFn(workerId(w.id)).some((st) => refersTo(st.Resource, users))).toBe(false);
    const env = (props(workerId(w.id)).Environment as { Variables: Json }).Variables;
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('TABLE_'))
        .sort(),
    ).toEqual(['TABLE_AUDIT', 'TABLE_DCC', 'TABLE_OUTBOX', 'TABLE_PACKAGES', 'TABLE_RESOURCES'].sort());
  });

  it('grants the failure handler the packages and audit tables and artefact deletion only', () => {
    const actions = allActions(failureId(w.failure.id));
    expect(actions.has('kms:Sign')).toBe(false);
    expect(actions.has('s3:PutObject')).toBe(false);
    expect(actions.has('s3:DeleteObject')).toBe(true);
    expect(actions.has('lambda:InvokeFunction')).toBe(false);
  });
});

describe('the deciding routes', () => {
  it('may invoke the worker, and nothing else may; they no longer touch S3 or the signing key', () => {
    const worker = workerId('generateArtefact');
    for (const route of ROUTES) {
      const fn = routeFnId(route.id);
      const invokes = statementsOfFn(fn).filter((st) => actionsOf(st).includes('lambda:InvokeFunction'));
      const expected = route.uses.invoke?.includes('generateArtefact') ?? false;
      expect(invokes.length > 0, route.id).toBe(expected);
      for (const st of invokes) {
        expect(actionsOf(st), route.id).toEqual(['lambda:InvokeFunction']);
        expect(refersTo(st.Resource, worker), route.id).toBe(true);
      }
      if (expected) {
        const env = (props(fn).Environment as { Variables: Json }).Variables;
        expect(refersTo(env[asyncWorkerEnv('generateArtefact')], worker), route.id).toBe(true);
        expect(
          [...allActions(fn)].filter((a) => a.startsWith('s3:') || a.startsWith('kms:')),
          route.id,
        ).toEqual([]);
      }
    }
    expect(
      ROUTES.filter((r) => r.uses.invoke)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['approvePackage', 'retryGeneration', 'signPackage'].sort());
  });

  it('leaves no cdk-nag finding unacknowledged', () => {
    expect(s.nagViolations).toEqual([]);
  });
});
