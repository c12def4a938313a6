import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_METRICS } from '../../shared/api/metrics';
import { ROUTES } from '../../shared/api/routes';
import { ORIGIN_VERIFY_HEADER } from '../../shared/domain/client-source';
import { API_ERR } from '../../shared/messages';
import { PUBLIC_ROUTE_THROTTLE, ROUTE_THROTTLE } from '../lib/constructs/api-guard';
import { Edge, edgeStackName } from '../lib/constructs/edge';
import { ConfigError, REPO_ROOT, readConfig } from '../lib/portal-config';
import { deadLettersOutput } from '../lib/portal-stack';
import { STAGES } from '../stages';
import { type Synthesized, synthPortal } from './support/synth';
import { type Json, resourcesOfType } from './support/template';

/**
 * Production in any region (decisions 305, 308, 311–313): prod as committed, in eu-central-1, with no web
 * ACL made by hand — the edge stack in us-east-1 holds CloudFront's; the API stage refuses what skipped
 * CloudFront before any function; the alarms on-call needs; business metrics, X-Ray; what is kept.
 */
let s: Synthesized;
beforeAll(() => {
  s = synthPortal({ stage: 'prod' }, { prod: STAGES.prod });
}, 900_000);

const resources = (type: string) => resourcesOfType(s, type);
const configWith = (patch: Record<string, unknown> = {}) =>
  readConfig(new App({ context: { allowPlaceholderWeb: 'true' } }).node, {
    dev: { ...STAGES.dev, ...patch },
  });

describe('the CloudFront web ACL lives in the edge stack, in us-east-1, wherever prod is (decision 305)', () => {
  it('synthesizes prod in eu-central-1 with the edge stack in us-east-1 and no webAclArn', () => {
    expect(s.synthError).toBeUndefined();
    expect(s.nagViolations).toEqual([]);
    expect(s.stack.region).toBe('eu-central-1');
    expect(s.edge?.stack.region).toBe('us-east-1');
    expect(s.edge?.stack.stackName).toBe('FirmwareReleasePortal-prod-edge');
    expect(s.stack.dependencies).toContain(s.edge!.stack);
  });

  it('holds the per-address rate limits (429 JSON) and the managed groups, and the distribution reads its ARN at deploy time', () => {
    const acls = Object.values(s.edge!.json.Resources).filter((r) => r.Type === 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const acl = acls[0]!.Properties as Json;
    expect(acl.Scope).toBe('CLOUDFRONT');
    const rules = acl.Rules as Json[];
    for (const [path, limit] of [
      ['/dev/user/login', 100],
      ['/dev/user/register', 20],
      ['/dev/user/reset-password', 20],
    ] as const) {
      const r = rules.find((x) => JSON.stringify(x.Statement).includes(`"SearchString":"${path}"`))!;
      expect(((r.Statement as Json).RateBasedStatement as Json).Limit, path).toBe(limit);
      expect(JSON.stringify(r.Action)).toContain('"ResponseCode":429');
    }
    expect(JSON.stringify(acl.CustomResponseBodies)).toContain('Too many requests from your network address');
    const managed = rules.map((r) => ((r.Statement as Json).ManagedRuleGroupStatement as Json)?.Name);
    expect(managed).toEqual(
      expect.arrayContaining(['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']),
    );
    expect(s.edge!.json.Outputs?.WebAclArn?.Value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    const dc = (s.json.Resources[s.logicalId(s.stack.web.distribution)]!.Properties as Json)
      .DistributionConfig as Json;
    expect(dc.WebACLId).toEqual({
      'Fn::GetStackOutput': {
        StackName: edgeStackName('prod'),
        OutputName: 'WebAclArn',
        Region: 'us-east-1',
      },
    });
  });

  it('keeps a stage-named web ACL as an alternative, and then makes no edge stack', () => {
    const arn =
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/corp-edge/11111111-2222-3333-4444-555555555555';
    const app = new App();
    const stack = new Stack(app, 'S', { env: { account: '123456789012', region: 'eu-central-1' } });
    const distribution = new cloudfront.Distribution(stack, 'D', {
      defaultBehavior: { origin: new origins.HttpOrigin('example.com') },
    });
    const edge = new Edge(stack, 'Edge', { config: configWith({ webAclArn: arn }), distribution });
    expect(edge.webAclName).toBe('corp-edge');
    Template.fromStack(stack).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: { WebACLId: arn },
    });
    expect(() => configWith({ webAclArn: arn.replace('us-east-1', 'eu-west-1') })).toThrow(ConfigError);
  });
});

describe('the API stage refuses what skipped CloudFront before any function runs (decision 308)', () => {
  it('associates a regional web ACL with the stage that blocks requests without the origin value, with 403 JSON', () => {
    const [[aclId, acl]] = [resources('AWS::WAFv2::WebACL')[0]!];
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const [rule] = acl.Rules as Json[];
    expect(rule!.Action).toEqual({
      Block: { CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: 'notThroughPortal' } },
    });
    const match = ((rule!.Statement as Json).NotStatement as Json).Statement as Json;
    const byte = match.ByteMatchStatement as Json;
    expect(byte.FieldToMatch).toEqual({ SingleHeader: { Name: ORIGIN_VERIFY_HEADER.toLowerCase() } });
    expect(byte.PositionalConstraint).toBe('EXACTLY');
    // the secret is resolved by CloudFormation, never written into the template
    expect(JSON.stringify(byte.SearchString)).toContain('{{resolve:secretsmanager:');
    expect(JSON.stringify(byte.SearchString)).toContain(s.logicalId(s.stack.signing.originVerifySecret));
    expect(
      JSON.parse(
        (acl.CustomResponseBodies as Json as { notThroughPortal: { Content: string } }).notThroughPortal
          .Content,
      ),
    ).toEqual({
      errorMessage: API_ERR.notThroughPortal,
    });
    const [[, assoc]] = [resources('AWS::WAFv2::WebACLAssociation')[0]!];
    expect(assoc.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(assoc.ResourceArn)).toContain(`"Ref":"${s.logicalId(s.stack.api.stage)}"`);
  });

  it('accepts the previous origin value too while a rotation names both versions', () => {
    const both = synthPortal(
      { stage: 'prod' },
      {
        prod: {
          ...STAGES.prod,
          originVerifySecretVersion: 'a1b2c3d4-e5f6-4789-8abc-def012345678',
          originVerifyPreviousSecretVersion: 'b1b2c3d4-e5f6-4789-8abc-def012345678',
        },
      },
    );
    const [, acl] = resourcesOfType(both, 'AWS::WAFv2::WebACL')[0]!;
    const match = ((((acl.Rules as Json[])[0]!.Statement as Json).NotStatement as Json).Statement as Json)
      .OrStatement as { Statements: Json[] };
    const values = match.Statements.map((st) => JSON.stringify((st.ByteMatchStatement as Json).SearchString));
    expect(values[0]).toContain('a1b2c3d4-e5f6-4789-8abc-def012345678');
    expect(values[1]).toContain('b1b2c3d4-e5f6-4789-8abc-def012345678');
    expect(() =>
      configWith({ originVerifyPreviousSecretVersion: 'b1b2c3d4-e5f6-4789-8abc-def012345678' }),
    ).toThrow(/goes with originVerifySecretVersion/);
  }, 900_000);

  it('throttles every route below the stage limit, the public ones lower, and traces the stage and every function', () => {
    const [, stage] = resources('AWS::ApiGateway::Stage')[0]!;
    expect(stage.TracingEnabled).toBe(true);
    const settings = stage.MethodSettings as Json[];
    for (const r of ROUTES) {
      const m = settings.find(
        (x) => x.HttpMethod === r.method && x.ResourcePath === `/${r.path.replace(/\//g, '~1')}`,
      );
      const t = r.access === 'public' ? PUBLIC_ROUTE_THROTTLE : ROUTE_THROTTLE;
      // a method's settings replace the stage's: they keep its error logging and metrics
      expect(m, r.id).toMatchObject({
        ThrottlingRateLimit: t.rateLimit,
        ThrottlingBurstLimit: t.burstLimit,
        LoggingLevel: 'ERROR',
        MetricsEnabled: true,
        DataTraceEnabled: false,
      });
    }
    for (const [id, fn] of resources('AWS::Lambda::Function').filter(([, f]) =>
      JSON.stringify(f.Environment ?? {}).includes('METRICS_NAMESPACE'),
    ))
      expect(fn.TracingConfig, id).toEqual({ Mode: 'Active' });
    expect(
      resources('AWS::Lambda::Function').filter(([, f]) => f.TracingConfig === undefined).length,
    ).toBeLessThanOrEqual(1);
  });
});

describe('on-call hears and acts (decision 311)', () => {
  const alarmsNamed = (part: string) =>
    resources('AWS::CloudWatch::Alarm').filter(([id]) => id.includes(part));

  it('alarms on throttles, the audit copy age, DynamoDB, SES reputation and artefact mismatches, each to the topic', () => {
    const topic = { Ref: s.logicalId(s.stack.monitoring.topic) };
    for (const part of [
      'LambdaThrottlesAlarm',
      'AuditCopyAgeAlarm',
      'SesBounceRateAlarm',
      'SesComplaintRateAlarm',
      'ArtefactMismatchAlarm',
    ]) {
      const found = alarmsNamed(part);
      expect(found, part).toHaveLength(1);
      expect(found[0]![1].AlarmActions, part).toEqual([topic]);
    }
    const tables = Object.keys(s.stack.data.tables).length;
    expect(alarmsNamed('ThrottlesAlarm').filter(([id]) => id.includes('Table'))).toHaveLength(tables);
    expect(alarmsNamed('SystemErrorsAlarm')).toHaveLength(tables);
    const mismatch = alarmsNamed('ArtefactMismatchAlarm')[0]![1];
    expect(mismatch).toMatchObject({
      MetricName: 'ArtefactMismatch',
      Namespace: 'FirmwareReleasePortal/prod',
    });
    for (const [id, a] of resources('AWS::CloudWatch::Alarm')) expect(a.AlarmActions, id).toEqual([topic]);
  });

  it('has a runbook in docs/operations.md for every alarm, and no runbook for an alarm that does not exist', () => {
    // "### <what> — `Monitoring/Alarms/<Table>Table/ThrottlesAlarm`, `…/SystemErrorsAlarm`": construct
    // paths under the stack; a bare name or `…/` continues the path before it; <w>, <Table> are any name
    const headings = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('### '));
    const runbooks = headings.flatMap((h) => {
      let dir = '';
      return [...h.matchAll(/`([^`]*Alarm)`/g)].map(([, path]) => {
        const full = path!.startsWith('…/')
          ? dir + path!.slice(2)
          : path!.includes('/')
            ? path!
            : dir + path!;
        dir = full.slice(0, full.lastIndexOf('/') + 1);
        const re = full.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[A-Za-z]+>/g, '[A-Za-z]+');
        return { heading: full, re: new RegExp(`^${re}$`) };
      });
    });
    expect(runbooks.length).toBeGreaterThan(10);
    const alarms = s.stack.node
      .findAll()
      .filter((c) => c instanceof cloudwatch.Alarm)
      .map((c) => c.node.path.slice(s.stack.node.path.length + 1));
    expect(alarms.filter((a) => !runbooks.some((r) => r.re.test(a)))).toEqual([]);
    // the key alarms come with the stack's own trail, after the first success (decision 307)
    const later = ['Trail/SigningKeyAlarm', 'Trail/DevSigningKeyAlarm'];
    expect(runbooks.filter((r) => !later.includes(r.heading) && !alarms.some((a) => r.re.test(a)))).toEqual(
      [],
    );
    expect(headings.join('\n')).toContain('### Budget — AWS Budgets `frp-<stage>-monthly`');
  });

  it("mails the stage's on-call address: an email subscription of the alarm topic, which SNS confirms by mail", () => {
    const topic = { Ref: s.logicalId(s.stack.monitoring.topic) };
    const subs = resources('AWS::SNS::Subscription').filter(
      ([, r]) => JSON.stringify(r.TopicArn) === JSON.stringify(topic),
    );
    expect(subs.map(([, r]) => [r.Protocol, r.Endpoint])).toEqual([['email', STAGES.prod.alarmEmail]]);
  });

  it('has a monthly AWS Budget of the stage setting that notifies the topic, which lets AWS Budgets publish', () => {
    const [[, budget]] = [resources('AWS::Budgets::Budget')[0]!];
    expect((budget.Budget as Json).BudgetLimit).toEqual({
      Amount: STAGES.prod.monthlyBudgetUsd,
      Unit: 'USD',
    });
    const subs = (budget.NotificationsWithSubscribers as Json[]).flatMap((n) => n.Subscribers as Json[]);
    expect(subs).toEqual(
      Array(2).fill({ SubscriptionType: 'SNS', Address: { Ref: s.logicalId(s.stack.monitoring.topic) } }),
    );
    const policy = resources('AWS::SNS::TopicPolicy')[0]![1];
    expect(JSON.stringify(policy.PolicyDocument)).toContain('budgets.amazonaws.com');
  });

  it('names every dead-letter queue and the redrive tables in the outputs', () => {
    const queues = new Map([...s.stack.workers.deadLetterQueues, ...s.stack.generation.deadLetterQueues]);
    expect(queues.size).toBeGreaterThanOrEqual(3);
    for (const [worker, q] of queues)
      expect(s.json.Outputs?.[deadLettersOutput(worker)]?.Value, worker).toEqual({
        'Fn::GetAtt': [s.logicalId(q), 'Arn'],
      });
    for (const key of ['OutboxTableName', 'PackagesTableName', 'AuditTableName'])
      expect(s.json.Outputs?.[key], key).toBeDefined();
  });

  it('shows the business metrics and both web ACLs on the dashboard', () => {
    const body = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0]![1].DashboardBody);
    for (const m of BUSINESS_METRICS) expect(body, m).toContain(m);
    expect(body).toContain('frp-prod-edge');
    expect(body).toContain('frp-prod-api');
    // prod lives in eu-central-1; CloudFront's web ACL metrics exist only in us-east-1, the graph reads them there
    expect(body).toMatch(/"WebACL\\",\\"frp-prod-edge\\",\{[^}]*\\"region\\":\\"us-east-1\\"/);
  });
});

describe('kept and paid for on purpose (decision 313)', () => {
  it('retains the SES identity, expires replaced packages and unconfirmed uploads after the stage setting', () => {
    const identity = Object.values(s.json.Resources).find((r) => r.Type === 'AWS::SES::EmailIdentity')!;
    expect(identity.DeletionPolicy).toBe('RetainExceptOnCreate');
    const rules = (bucket: 'artefacts' | 'resources') =>
      (
        (s.json.Resources[s.logicalId(s.stack.data.buckets[bucket])]!.Properties as Json)
          .LifecycleConfiguration as {
          Rules: Json[];
        }
      ).Rules;
    expect(rules('artefacts')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: STAGES.prod.artefactNoncurrentDays },
        }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true }),
      ]),
    );
    expect(rules('resources')).toEqual(
      expect.arrayContaining([expect.objectContaining({ Prefix: 'staging/', ExpirationInDays: 1 })]),
    );
  });
});
