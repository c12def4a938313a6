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

describe('the routes that start asynchronous work', () => {
  it('may invoke their worker only, and no other route may invoke anything', () => {
    for (const route of ROUTES) {
      const fn = routeFnId(route.id);
      const invokes = statementsOfFn(fn).filter((st) => actionsOf(st).includes('lambda:InvokeFunction'));
      const expected = route.uses.invoke ?? [];
      // one function ARN per worker it may invoke, in as many statements as IAM minimizing leaves
      const resources = invokes.flatMap((st) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]));
      expect(resources.length, route.id).toBe(expected.length);
      expect(invokes.length > 0, route.id).toBe(expected.length > 0);
      for (const st of invokes) expect(actionsOf(st), route.id).toEqual(['lambda:InvokeFunction']);
      for (const id of expected) {
        const worker = workerId(id);
        expect(
          invokes.some((st) => refersTo(st.Resource, worker)),
          `${route.id} → ${id}`,
        ).toBe(true);
        const env = (props(fn).Environment as { Variables: Json }).Variables;
        expect(refersTo(env[asyncWorkerEnv(id)], worker), route.id).toBe(true);
      }
    }
    const invoking = (id: string) =>
      ROUTES.filter((r) => (r.uses.invoke as readonly string[] | undefined)?.includes(id))
        .map((r) => r.id)
        .sort();
    expect(invoking('generateArtefact')).toEqual(['approvePackage', 'retryGeneration', 'signPackage'].sort());
    expect(invoking('verifyUpload')).toEqual(['completeMultipartUpload', 'confirmResourceUpload'].sort());
  });

  it('the deciding routes no longer touch S3 or the signing key', () => {
    for (const route of ROUTES.filter((r) => r.uses.invoke?.includes('generateArtefact'))) {
      expect(
        [...allActions(routeFnId(route.id))].filter((a) => a.startsWith('s3:') || a.startsWith('kms:')),
        route.id,
      ).toEqual([]);
    }
  });
});

describe('verifyUpload worker (decision 173)', () => {
  const w = ASYNC_WORKERS.find((x) => x.id === 'verifyUpload')!;

  it('is invoked asynchronously with bounded retries, failures going to its own queue, handler and DLQ', () => {
    const configs = resources('AWS::Lambda::EventInvokeConfig').filter(([, p]) =>
      refersTo(p.FunctionName, workerId(w.id)),
    );
    expect(configs).toHaveLength(1);
    expect(configs[0]![1].MaximumRetryAttempts).toBe(2);
    const queue = s.logicalId(s.stack.generation.failureQueues.get(w.id)!);
    expect(refersTo((configs[0]![1].DestinationConfig as Json).OnFailure, queue)).toBe(true);
    const mappings = resources('AWS::Lambda::EventSourceMapping').filter(([, p]) =>
      refersTo(p.FunctionName, failureId(w.failure.id)),
    );
    expect(mappings).toHaveLength(1);
    expect(refersTo(mappings[0]![1].EventSourceArn, queue)).toBe(true);
    const p = props(workerId(w.id));
    expect([p.Timeout, p.MemorySize]).toEqual([900, 1769]);
  });

  it('grants the worker the resources and audit tables and the resources bucket only; the failure handler the resources table only', () => {
    const actions = allActions(workerId(w.id));
    expect([...actions].some((a) => a.startsWith('kms:') || a.startsWith('ses:'))).toBe(false);
    expect(actions.has('s3:GetObject') && actions.has('s3:PutObject') && actions.has('s3:DeleteObject')).toBe(
      true,
    );
    const artefacts = s.logicalId(s.stack.data.buckets.artefacts);
    expect(statementsOfFn(workerId(w.id)).some((st) => refersTo(st.Resource, artefacts))).toBe(false);
    const env = (p: string) =>
      Object.keys(((props(p).Environment as { Variables: Json }).Variables ?? {}) as Json)
        .filter((k) => k.startsWith('TABLE_') || k.startsWith('BUCKET_'))
        .sort();
    expect(env(workerId(w.id))).toEqual(['BUCKET_RESOURCES', 'TABLE_AUDIT', 'TABLE_RESOURCES']);
    expect(env(failureId(w.failure.id))).toEqual(['TABLE_RESOURCES']);
    expect([...allActions(failureId(w.failure.id))].some((a) => a.startsWith('s3:'))).toBe(false);
  });
});

describe('the asynchronous workers construct', () => {
  it('leaves no cdk-nag finding unacknowledged', () => {
    expect(s.nagViolations).toEqual([]);
  });
});
