import { CfnRule } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../lib/portal-app';
import { CLOUDFRONT_NO_LOG_REGIONS } from '../lib/regions';
import { STAGES } from '../stages';
import { CDK_JSON_CONTEXT, type Synthesized, synthPortal, type TemplateJson } from './support/synth';

/**
 * Issue 24: a failed first deploy can be retried with no manual step (decision 200). The model below is
 * what CloudFormation does when a stack's create fails: it deletes every resource the create made, in
 * reverse dependency order (DeletionPolicy Delete and RetainExceptOnCreate both delete on a create's
 * rollback; Retain and Snapshot leave the resource behind). The stack ends in ROLLBACK_COMPLETE, and
 * `cdk deploy` deletes that stack before creating it again. What makes that fail is listed.
 */
function rollbackBlockers(json: TemplateJson, terminationProtection: boolean): string[] {
  const blockers: string[] = [];
  if (terminationProtection)
    blockers.push('termination protection: cdk deploy cannot delete the ROLLBACK_COMPLETE stack');
  const resources = Object.entries(json.Resources);
  for (const [id, r] of resources) {
    const props = r.Properties ?? {};
    const policy = (r.DeletionPolicy as string | undefined) ?? 'Delete';
    if (policy === 'Retain' || policy === 'Snapshot') blockers.push(`${id}: ${policy} leaves it behind`);
    if (r.Type === 'AWS::DynamoDB::Table' && props.DeletionProtectionEnabled === true)
      blockers.push(`${id}: DynamoDB refuses DeleteTable while deletion protection is on`);
    if (r.Type === 'AWS::Logs::LogGroup' && props.DeletionProtectionEnabled === true)
      blockers.push(`${id}: log group deletion protection`);
    if (r.Type === 'AWS::S3::Bucket') {
      // filled during the create by a BucketDeployment: emptied only when that deployment deletes what
      // it copied (RetainOnDelete false); it refers to the bucket, so CloudFormation deletes it first
      for (const [depId, dep] of resources.filter(([, x]) => x.Type === 'Custom::CDKBucketDeployment')) {
        const dp = dep.Properties ?? {};
        if (JSON.stringify(dp.DestinationBucketName) !== JSON.stringify({ Ref: id })) continue;
        if (dp.RetainOnDelete !== false)
          blockers.push(
            `${id}: filled by ${depId}, which keeps its files on delete: DeleteBucket fails (not empty)`,
          );
      }
    }
  }
  return blockers;
}

/** building the app bundles every Lambda unless told not to (as synthPortal does) */
const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [], allowPlaceholderWeb: 'true' };

const synthStage = (settings: Record<string, unknown>) => synthPortal({ stage: 'prod' }, { prod: settings });

let first: Synthesized;
let later: Synthesized;
beforeAll(() => {
  // prod as committed: its first deploy has not happened yet (firstDeployDone false)
  first = synthStage(STAGES.prod);
  later = synthStage({ ...STAGES.prod, firstDeployDone: true });
});

describe('a failed first deploy can be retried', () => {
  it('creates nothing whose rollback would fail: no table deletion protection, the site bucket emptied first, no termination protection', () => {
    expect(STAGES.prod.firstDeployDone).toBe(false);
    expect(rollbackBlockers(first.json, first.stack.terminationProtection)).toEqual([]);
    for (const table of Object.values(first.stack.data.tables)) {
      const r = first.json.Resources[first.logicalId(table)]!;
      expect((r.Properties as Record<string, unknown>).DeletionProtectionEnabled).toBe(false);
      // still kept on stack deletion and replacement
      expect(r.DeletionPolicy).toBe('RetainExceptOnCreate');
    }
  });

  it('empties the site bucket by deleting its deployments, which depend on it', () => {
    const site = first.logicalId(first.stack.web.bucket);
    const deployments = Object.entries(first.json.Resources).filter(
      ([, r]) => r.Type === 'Custom::CDKBucketDeployment',
    );
    expect(deployments).toHaveLength(2);
    for (const [id, r] of deployments) {
      expect((r.Properties as Record<string, unknown>).RetainOnDelete, id).toBe(false);
      expect(JSON.stringify((r.Properties as Record<string, unknown>).DestinationBucketName)).toBe(
        JSON.stringify({ Ref: site }),
      );
    }
  });

  it('turns the protections on with the deploy after the first success (firstDeployDone: true)', () => {
    const blockers = rollbackBlockers(later.json, later.stack.terminationProtection);
    // the model sees them: a failed create of this template could not be cleaned up or retried
    expect(blockers.filter((b) => b.includes('deletion protection'))).toHaveLength(
      Object.keys(later.stack.data.tables).length,
    );
    expect(blockers).toContain(
      'termination protection: cdk deploy cannot delete the ROLLBACK_COMPLETE stack',
    );
    expect(later.stack.terminationProtection).toBe(true);
    expect(first.stack.terminationProtection).toBe(false);
    // the update that turns them on changes only the protection, not the resources
    for (const table of Object.values(later.stack.data.tables))
      expect(
        (later.json.Resources[later.logicalId(table)]!.Properties as Record<string, unknown>)
          .DeletionProtectionEnabled,
      ).toBe(true);
    expect(Object.keys(later.json.Resources).sort()).toEqual(Object.keys(first.json.Resources).sort());
  });

  it('passes cdk-nag for prod as committed', () => {
    expect(first.nagViolations.map((v) => v.ruleName)).toEqual([]);
    expect(first.synthError).toBeUndefined();
  });
});

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
    expect(first.stack.node.tryFindChild('CloudFrontLogRegion')).toBeUndefined();
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
