import { beforeAll, describe, expect, it } from 'vitest';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import { WORKERS } from '../../shared/api/workers';
import { TABLES } from '../lib/definitions';
import { type Synthesized, synthPortal } from './support/synth';
import { actionsOf, type Json, resourcesOfType, statementsOfFunction } from './support/template';

/** The stream workers (decisions 095, 097): streams, functions, event source mappings, DLQs, grants. */
let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

const resources = (type: string) => resourcesOfType(s, type);

const fnId = (id: string) => s.logicalId(s.stack.workers.functions.get(id)!);
const fnProps = (id: string) => s.json.Resources[fnId(id)]!.Properties as Json;

const statementsOf = (id: string) => statementsOfFunction(s, fnId(id));

function mappingOf(id: string): Json {
  const found = resources('AWS::Lambda::EventSourceMapping').filter(
    ([, p]) => (p.FunctionName as Json).Ref === fnId(id),
  );
  expect(found, id).toHaveLength(1);
  return found[0]![1];
}

describe('stream workers', () => {
  it('turns on a new-image stream on exactly the tables a worker reads', () => {
    for (const [name, def] of Object.entries(TABLES)) {
      const props = s.json.Resources[s.logicalId(s.stack.data.tables[name as keyof typeof TABLES])]!
        .Properties as Json;
      expect(props.StreamSpecification, name).toEqual(
        def.stream ? { StreamViewType: 'NEW_IMAGE' } : undefined,
      );
    }
    expect(WORKERS.map((w) => w.source).sort()).toEqual(['audit', 'outbox']);
    expect(
      Object.entries(TABLES)
        .filter(([, d]) => d.stream)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['audit', 'outbox']);
  });

  it('maps each worker to its table stream with filters, partial batch responses, bisect, bounded retries and a DLQ', () => {
    for (const w of WORKERS) {
      const m = mappingOf(w.id);
      const tableId = s.logicalId(s.stack.data.tables[w.source]);
      expect(m.EventSourceArn, w.id).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
      expect(m.StartingPosition).toBe('TRIM_HORIZON');
      expect(m.BatchSize).toBe(w.batchSize);
      expect(m.BisectBatchOnFunctionError).toBe(true);
      expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(m.MaximumRetryAttempts).toBe(w.retryAttempts);
      expect(m.MaximumRecordAgeInSeconds).toBe(w.maxRecordAgeSeconds);
      const pattern = JSON.parse(
        String((m.FilterCriteria as { Filters: { Pattern: string }[] }).Filters[0]!.Pattern),
      );
      expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { kind: { S: [w.kind] } } } });
      const dlqId = s.logicalId(s.stack.workers.deadLetterQueues.get(w.id)!);
      expect((m.DestinationConfig as Json).OnFailure).toEqual({
        Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      });
    }
  });

  it('keeps the dead-letter queues encrypted, TLS only, for 14 days, with an alarm on each', () => {
    for (const w of WORKERS) {
      const dlqId = s.logicalId(s.stack.workers.deadLetterQueues.get(w.id)!);
      const q = s.json.Resources[dlqId]!.Properties as Json;
      expect(q.SqsManagedSseEnabled, w.id).toBe(true);
      expect(q.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      const policy = resources('AWS::SQS::QueuePolicy').find(([, p]) =>
        (p.Queues as Json[]).some((x) => x.Ref === dlqId),
      );
      expect(JSON.stringify(policy?.[1].PolicyDocument)).toContain('"aws:SecureTransport":"false"');
      const alarm = resources('AWS::CloudWatch::Alarm').find(([, a]) =>
        JSON.stringify(a.Dimensions ?? []).includes(dlqId),
      );
      expect(alarm?.[1].MetricName, w.id).toBe('ApproximateNumberOfMessagesVisible');
    }
  });

  it('grants the mail worker its tables, SES on the sender only and nothing of S3', () => {
    const st = statementsOf('mailOutbox');
    const actions = new Set(st.flatMap(actionsOf));
    expect(actions.has('ses:SendEmail')).toBe(true);
    expect([...actions].some((a) => a.startsWith('s3:'))).toBe(false);
    expect([...actions].some((a) => a.startsWith('kms:'))).toBe(false);
    for (const x of st.filter((y) => actionsOf(y).includes('ses:SendEmail')))
      for (const r of Array.isArray(x.Resource) ? x.Resource : [x.Resource])
        expect(JSON.stringify(r)).toMatch(/:identity\/(firmware-portal@example\.com|example\.com)"/);
    // the audit table is append-only for it too
    const auditId = s.logicalId(s.stack.data.tables.audit);
    const onAudit = st.filter(
      (x) =>
        JSON.stringify(x.Resource).includes(`"${auditId}"`) &&
        !actionsOf(x).some((a) => a.startsWith('dynamodb:DescribeStream')),
    );
    for (const x of onAudit) {
      expect(actionsOf(x)).not.toContain('dynamodb:UpdateItem');
      expect(actionsOf(x)).not.toContain('dynamodb:DeleteItem');
    }
    const vars = (fnProps('mailOutbox').Environment as { Variables: Json }).Variables;
    expect(Object.keys(vars).sort()).toEqual(
      // APP_URL: its mails link to the portal
      [
        // every function: the stage's approval policy by name (decision 338)
        'APPROVAL_POLICY',
        'APP_URL',
        'MAIL_FROM',
        // mails given up are counted as a business metric (decision 312)
        'METRICS_NAMESPACE',
        tableEnv('audit'),
        tableEnv('outbox'),
        tableEnv('packages'),
      ].sort(),
    );
  });

  it('lets the audit copy only put objects into the audit bucket and read its stream', () => {
    const st = statementsOf('auditCopy');
    const actions = new Set(st.flatMap(actionsOf));
    expect([...actions].filter((a) => a.startsWith('s3:'))).toEqual(['s3:PutObject']);
    const bucketId = s.logicalId(s.stack.data.buckets.audit);
    for (const x of st.filter((y) => actionsOf(y).includes('s3:PutObject')))
      expect(JSON.stringify(x.Resource)).toContain(`"${bucketId}"`);
    expect([...actions].some((a) => /^dynamodb:(PutItem|UpdateItem|DeleteItem|GetItem|Query)$/.test(a))).toBe(
      false,
    );
    expect([...actions].some((a) => a.startsWith('ses:'))).toBe(false);
    const vars = (fnProps('auditCopy').Environment as { Variables: Json }).Variables;
    expect(Object.keys(vars).sort()).toEqual(
      ['APPROVAL_POLICY', 'METRICS_NAMESPACE', bucketEnv('audit')].sort(),
    );
  });

  it('runs the workers on the app runtime with their timeouts', () => {
    for (const w of WORKERS) {
      const p = fnProps(w.id);
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.Timeout).toBe(w.timeoutSeconds);
    }
  });

  it('outputs what audit:verify reads', () => {
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.AuditTableName?.Value).toEqual({ Ref: s.logicalId(s.stack.data.tables.audit) });
    expect(outputs.AuditBucketName?.Value).toEqual({ Ref: s.logicalId(s.stack.data.buckets.audit) });
  });
});
