import { CfnRule } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../lib/portal-app';
import { CLOUDFRONT_NO_LOG_REGIONS } from '../lib/regions';
import { STAGES } from '../stages';
import { CDK_JSON_CONTEXT, type Synthesized, synthPortal, type TemplateJson } from './support/synth';

/**
 * A failed first deploy can be retried with no manual step (decisions 200, 307). The model below is what
 * CloudFormation does when a stack's create fails: it deletes every resource the create made, in reverse
 * dependency order (DeletionPolicy Delete and RetainExceptOnCreate both delete on a create's rollback;
 * Retain and Snapshot leave the resource behind). The stack ends in ROLLBACK_COMPLETE, and `cdk deploy`
 * deletes that stack before creating it again. What makes that fail is listed as a blocker.
 *
 * A bucket can only be deleted empty, so the model must know every resource that writes into a bucket
 * while the create is still running: each resource that names a bucket of the template is either such a
 * writer (WRITERS) or known not to write during a create (NO_WRITE_DURING_CREATE, with the reason); a
 * resource type in neither table fails the test until someone classifies it.
 */

type Json = Record<string, unknown>;
type Resource = TemplateJson['Resources'][string];

/** Resources that write into a bucket during a create, and which property names that bucket. */
const WRITERS: Record<string, { what: string; target: (p: Json) => unknown }> = {
  'Custom::CDKBucketDeployment': {
    what: 'copies the SPA into it during the create',
    target: (p) => p.DestinationBucketName,
  },
  'AWS::CloudTrail::Trail': {
    what: 'delivers log files into it every ~5 minutes from the moment it is created',
    target: (p) => p.S3BucketName,
  },
  'AWS::S3::Bucket': {
    what: 'has S3 deliver its server access logs into it (minutes to hours after each request)',
    target: (p) => (p.LoggingConfiguration as Json | undefined)?.DestinationBucketName,
  },
  'AWS::CloudFront::Distribution': {
    what: 'has CloudFront deliver its standard logs into it',
    target: (p) => ((p.DistributionConfig as Json).Logging as Json | undefined)?.Bucket,
  },
};

/** Resource types that name a bucket but write nothing into one while the stack is being created. */
const NO_WRITE_DURING_CREATE: Record<string, string> = {
  'AWS::IAM::Policy': 'a permission; used only when a function runs',
  'AWS::IAM::ManagedPolicy': "the auditors' read permissions",
  'AWS::IAM::Role': 'a permission; used only when a function runs',
  'AWS::S3::BucketPolicy': 'a policy on the bucket, no object',
  'AWS::Lambda::Function':
    'runs only when invoked: by the API (no traffic before CloudFront is deployed at the end of the create, and nothing writes objects before a user exists) or a table stream (tables are empty)',
  'AWS::CloudFront::ResponseHeadersPolicy': 'names the browser buckets in its CSP',
  'AWS::CloudFormation::Stack': 'passes the bucket to a nested stack as a parameter',
};

/** The CDK bootstrap's CloudFormation execution role: the principal that deletes what a failed create made. */
const DEPLOYMENT_ROLE = /cfn-exec-role/;

/**
 * A key the create made is deleted by its rollback: CloudFormation schedules its deletion as the
 * deployment role, with the key's PendingWindowInDays (30 when unset). A key policy that denies that, or
 * allows no such window, leaves the key and ends the rollback in ROLLBACK_FAILED.
 */
function keyDeletionBlockers(id: string, props: Json): string[] {
  const statements = ((props.KeyPolicy as Json | undefined)?.Statement as Json[] | undefined) ?? [];
  const window = (props.PendingWindowInDays as number | undefined) ?? 30;
  const schedules = (st: Json) =>
    [st.Action].flat().some((a) => a === 'kms:ScheduleKeyDeletion' || a === 'kms:*');
  const namesDeployer = (v: unknown) => DEPLOYMENT_ROLE.test(JSON.stringify(v ?? null));
  const condition = (st: Json, op: string) =>
    ((st.Condition as Json | undefined)?.[op] as Json | undefined) ?? {};
  const blockers = statements
    .filter((st) => st.Effect === 'Deny' && schedules(st))
    .filter((st) => !namesDeployer(condition(st, 'StringNotEquals')['aws:PrincipalArn']))
    .map(() => `${id}: its key policy denies the deployment role kms:ScheduleKeyDeletion`);
  const allowed = statements.some((st) => {
    if (st.Effect !== 'Allow' || !schedules(st)) return false;
    const who = condition(st, 'StringEquals')['aws:PrincipalArn'];
    const least = condition(st, 'NumericGreaterThanEquals')['kms:ScheduleKeyDeletionPendingWindowInDays'];
    return (who === undefined || namesDeployer(who)) && (least === undefined || Number(least) <= window);
  });
  if (!allowed)
    blockers.push(
      `${id}: no key policy statement lets the deployment role schedule its deletion with ${window} days`,
    );
  return blockers;
}

/** The logical id a property names (`Ref`, `Fn::GetAtt`), if it is a bucket of the template. */
function bucketOf(value: unknown, buckets: Set<string>): string | undefined {
  const text = JSON.stringify(value ?? null);
  return [...buckets].find((b) => text.includes(`"${b}"`));
}

interface FirstDeployModel {
  blockers: string[];
  /** one line per bucket: who writes into it during a create, and how the rollback empties it */
  handling: Map<string, string>;
}

function firstDeployModel(json: TemplateJson, terminationProtection: boolean): FirstDeployModel {
  const blockers: string[] = [];
  if (terminationProtection)
    blockers.push('termination protection: cdk deploy cannot delete the ROLLBACK_COMPLETE stack');
  const resources = Object.entries(json.Resources);
  const buckets = new Set(resources.filter(([, r]) => r.Type === 'AWS::S3::Bucket').map(([id]) => id));
  const handling = new Map<string, string>(
    [...buckets].map((b) => [b, 'nothing writes into it during a create']),
  );

  for (const [id, r] of resources) {
    const props = r.Properties ?? {};
    const policy = (r.DeletionPolicy as string | undefined) ?? 'Delete';
    if (policy === 'Retain' || policy === 'Snapshot') blockers.push(`${id}: ${policy} leaves it behind`);
    if (r.Type === 'AWS::DynamoDB::Table' && props.DeletionProtectionEnabled === true)
      blockers.push(`${id}: DynamoDB refuses DeleteTable while deletion protection is on`);
    if (r.Type === 'AWS::Logs::LogGroup' && props.DeletionProtectionEnabled === true)
      blockers.push(`${id}: log group deletion protection`);
    if (r.Type === 'AWS::KMS::Key' && policy !== 'Retain') blockers.push(...keyDeletionBlockers(id, props));

    const writer = WRITERS[r.Type];
    const written = writer ? bucketOf(writer.target(props), buckets) : undefined;
    if (writer && written) {
      if (r.Type === 'Custom::CDKBucketDeployment' && props.RetainOnDelete === false)
        // it refers to the bucket, so CloudFormation deletes it (and, with it, its files) first
        handling.set(written, `${id} ${writer.what}; deleting ${id} deletes them, before the bucket`);
      else {
        handling.set(written, `${id} ${writer.what}`);
        blockers.push(`${written}: ${id} ${writer.what}: DeleteBucket fails (not empty)`);
      }
      continue;
    }
    // every other resource that names a bucket must be known not to write into it
    const named = bucketOf(props, buckets);
    if (named && named !== id && !(r.Type in NO_WRITE_DURING_CREATE) && !(r.Type in WRITERS))
      blockers.push(
        `${id} (${r.Type}) names ${named}: the model does not know whether it writes during a create`,
      );
  }
  return { blockers, handling };
}

/** building the app bundles every Lambda unless told not to (as synthPortal does) */
const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [], allowPlaceholderWeb: 'true' };

/** A committed stage as it is before its first deploy: firstDeployDone false (or unset). */
const beforeFirstDeploy = (settings: Record<string, unknown>) =>
  'firstDeployDone' in settings ? { ...settings, firstDeployDone: false } : settings;

const synthStage = (name: string, settings: Record<string, unknown>) =>
  synthPortal({ stage: name }, { [name]: settings });

function modelOf(s: Synthesized): FirstDeployModel {
  const root = firstDeployModel(s.json, s.stack.terminationProtection);
  if (!s.edge) return root;
  const edge = firstDeployModel(s.edge.json, s.edge.stack.terminationProtection);
  return { blockers: [...root.blockers, ...edge.blockers], handling: root.handling };
}

describe('a failed first deploy of every committed stage can be retried (decisions 200, 307)', () => {
  for (const [name, settings] of Object.entries(STAGES))
    it(`${name}: no blocker, and the trail and log buckets are accounted for`, () => {
      const s = synthStage(name, beforeFirstDeploy(settings));
      const { blockers, handling } = modelOf(s);
      expect(blockers).toEqual([]);
      // the stack's own trail and every log delivery come with the deploy after the first success
      expect(resourcesOf(s, 'AWS::CloudTrail::Trail')).toEqual([]);
      const logs = s.logicalId(s.stack.data.accessLogs);
      expect(handling.get(logs)).toBe('nothing writes into it during a create');
      const site = s.logicalId(s.stack.web.bucket);
      expect(handling.get(site)).toMatch(/^WebDeploy\w+ copies the SPA into it during the create; deleting/);
      for (const table of Object.values(s.stack.data.tables)) {
        const r = s.json.Resources[s.logicalId(table)]!;
        expect((r.Properties as Json).DeletionProtectionEnabled, name).toBe(false);
      }
      // the signing keys the create made are among what the model checked (their policy lets the rollback delete them)
      expect(resourcesOf(s, 'AWS::KMS::Key').length, name).toBeGreaterThan(0);
      expect(s.nagViolations.map((v) => v.ruleName)).toEqual([]);
      expect(s.synthError).toBeUndefined();
      // a synth takes one to several minutes on a busy shared machine
    }, 600_000);

  it('ships dev throw-away: deleted with the stack, no firstDeployDone to forget', () => {
    expect(STAGES.dev.deletionProtection).toBe(false);
    expect('firstDeployDone' in STAGES.dev).toBe(false);
    expect(STAGES.prod.firstDeployDone).toBe(false);
  });
});

describe('after the first success (firstDeployDone: true)', () => {
  let later: Synthesized;
  let first: Synthesized;
  beforeAll(() => {
    first = synthStage('prod', STAGES.prod);
    later = synthStage('prod', { ...STAGES.prod, firstDeployDone: true });
  }, 900_000);

  it('turns the protections, the trail and the access logs on, which the model sees as rollback blockers', () => {
    const { blockers, handling } = modelOf(later);
    expect(blockers.filter((b) => b.includes('deletion protection'))).toHaveLength(
      Object.keys(later.stack.data.tables).length,
    );
    expect(blockers).toContain(
      'termination protection: cdk deploy cannot delete the ROLLBACK_COMPLETE stack',
    );
    const trailBucket = later.logicalId(later.stack.trail.bucket!);
    expect(handling.get(trailBucket)).toMatch(/^Trail\w* delivers log files into it/);
    const logs = later.logicalId(later.stack.data.accessLogs);
    expect(handling.get(logs)).toMatch(/deliver/);
    expect(blockers.some((b) => b.startsWith(`${logs}:`))).toBe(true);
    expect(blockers.some((b) => b.startsWith(`${trailBucket}:`))).toBe(true);
    expect(later.stack.terminationProtection).toBe(true);
    expect(first.stack.terminationProtection).toBe(false);
  });

  it('changes nothing the first deploy made but the protections and the writers it adds', () => {
    const added = Object.keys(later.json.Resources).filter((id) => !(id in first.json.Resources));
    expect(added.length).toBeGreaterThan(0);
    for (const id of added) expect(id, id).toMatch(/^(Trail|Monitoring)/);
    expect(Object.keys(first.json.Resources).filter((id) => !(id in later.json.Resources))).toEqual([]);
  });

  it('refuses to call a resource that names a bucket harmless when the model does not know its type', () => {
    const json: TemplateJson = {
      Resources: {
        Logs: { Type: 'AWS::S3::Bucket', Properties: {} },
        Flow: {
          Type: 'AWS::EC2::FlowLog',
          Properties: { LogDestination: { 'Fn::GetAtt': ['Logs', 'Arn'] } },
        },
      },
    };
    expect(firstDeployModel(json, false).blockers).toEqual([
      'Flow (AWS::EC2::FlowLog) names Logs: the model does not know whether it writes during a create',
    ]);
  });

  it('finds a signing key the rollback could not delete: the deployment role denied, or a window its policy refuses', () => {
    const key = (props: Json): TemplateJson => ({
      Resources: {
        Key: { Type: 'AWS::KMS::Key', DeletionPolicy: 'RetainExceptOnCreate', Properties: props },
      },
    });
    const committed = first.json.Resources[first.logicalId(first.stack.signing.devKey)]!;
    const policy = (committed.Properties as Json).KeyPolicy as { Statement: Json[] };
    expect(firstDeployModel(key(committed.Properties as Json), false).blockers).toEqual([]);
    const denyAll = policy.Statement.map((st) =>
      st.Effect === 'Deny' && st.Action === 'kms:ScheduleKeyDeletion' ? { ...st, Condition: undefined } : st,
    );
    expect(firstDeployModel(key({ KeyPolicy: { Statement: denyAll } }), false).blockers).toContain(
      'Key: its key policy denies the deployment role kms:ScheduleKeyDeletion',
    );
    expect(
      firstDeployModel(key({ ...(committed.Properties as Json), PendingWindowInDays: 7 }), false).blockers,
    ).toEqual(['Key: no key policy statement lets the deployment role schedule its deletion with 7 days']);
  });

  it('passes cdk-nag for prod as committed', () => {
    expect(first.nagViolations.map((v) => v.ruleName)).toEqual([]);
    expect(first.synthError).toBeUndefined();
  });
});

const resourcesOf = (s: Synthesized, type: string): string[] =>
  Object.entries(s.json.Resources)
    .filter(([, r]: [string, Resource]) => r.Type === type)
    .map(([id]) => id);

describe('CloudFront access logs', () => {
  it('fails the synth for a stage in a region CloudFront delivers no logs to, naming the regions', () => {
    for (const region of ['af-south-1', 'ap-east-1', 'eu-south-1', 'me-south-1']) {
      expect(CLOUDFRONT_NO_LOG_REGIONS).toContain(region);
      expect(() =>
        buildApp(
          { context: { ...CDK_JSON_CONTEXT, ...NO_BUNDLING, stage: 'prod' } },
          { prod: { ...STAGES.prod, region } },
        ),
      ).toThrow(
        new RegExp(
          `region ${region}: CloudFront delivers no access logs to S3 buckets in af-south-1, ap-east-1.*eu-south-1.*me-south-1`,
        ),
      );
    }
  });

  it('adds no deploy-time rule when the region is known, and one when it is left to the CLI profile', () => {
    const { stack: pinned } = buildApp(
      { context: { ...CDK_JSON_CONTEXT, ...NO_BUNDLING, stage: 'prod' } },
      { prod: STAGES.prod },
    );
    expect(pinned.node.tryFindChild('CloudFrontLogRegion')).toBeUndefined();
    const { stack } = buildApp({ context: { ...CDK_JSON_CONTEXT, ...NO_BUNDLING } });
    const rule = stack.node.tryFindChild('CloudFrontLogRegion');
    expect(rule).toBeInstanceOf(CfnRule);
    const rendered = JSON.stringify(
      stack.resolve((rule as unknown as { _toCloudFormation(): unknown })._toCloudFormation()),
    );
    expect(rendered).toContain('"Fn::Contains"');
    expect(rendered).toContain('me-south-1');
    expect(rendered).toContain('"Ref":"AWS::Region"');
  });
});
