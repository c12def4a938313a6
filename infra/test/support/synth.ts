import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { buildApp } from '../../lib/portal-app';
import { REPO_ROOT } from '../../lib/portal-config';
import type { PortalStack } from '../../lib/portal-stack';

export interface Violation {
  ruleName: string;
  violatingConstructs: { constructPath: string }[];
}

export interface Synthesized {
  app: App;
  stack: PortalStack;
  template: Template;
  /** the raw template, for walks the assertions API has no matcher for */
  json: {
    Resources: Record<
      string,
      { Type: string; Properties?: Record<string, unknown> } & Record<string, unknown>
    >;
  };
  /** findings of the cdk-nag AwsSolutions pack that no acknowledgement covers */
  nagViolations: Violation[];
  /** every acknowledgement recorded in the app: rule id → reason */
  acknowledgements: { path: string; id: string; reason: string }[];
  /** the synth error, if validation failed (the template is still read from disk) */
  synthError?: Error;
  logicalId(construct: IConstruct): string;
}

/** The feature flags of cdk.json, so the tests synthesize exactly what `cdk synth` does. */
export const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }
).context;

/**
 * Synthesizes the portal once for a test file. Lambda bundling is skipped (`aws:cdk:bundling-stacks`):
 * 43 esbuild runs take minutes on a shared machine and say nothing about the template; `npm run synth`
 * bundles them all and bundling.test.ts bundles one through the same NodejsFunction settings.
 */
export function synthPortal(context: Record<string, unknown> = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'frp-infra-'));
  const { app, stack } = buildApp({
    context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context },
    outdir,
    stackTraces: false,
  });
  let synthError: Error | undefined;
  try {
    app.synth();
  } catch (e) {
    synthError = e as Error;
  }
  const json = JSON.parse(readFileSync(join(outdir, stack.templateFile), 'utf8')) as Synthesized['json'];
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: { pluginName: string; violations: Violation[] }[];
  };
  const acknowledgements: Synthesized['acknowledgements'] = [];
  for (const c of app.node.findAll())
    for (const m of c.node.metadata)
      if (m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        for (const [id, reason] of Object.entries(m.data as Record<string, string>))
          acknowledgements.push({ path: c.node.path, id: id.replace(/^[A-Za-z]+::/, ''), reason });
  return {
    app,
    stack,
    json,
    template: Template.fromJSON(json),
    nagViolations: report.pluginReports
      .filter((r) => r.pluginName === 'AwsSolutions')
      .flatMap((r) => r.violations),
    acknowledgements,
    synthError,
    logicalId: (construct) => stack.getLogicalId(construct.node.defaultChild as CfnElement),
  };
}

/**
 * The config.json that the SPA's page deployment (DeployPages: index.html and the other unhashed files,
 * no-cache) writes next to the SPA, read from its asset in the cloud assembly.
 */
export function deployedSiteSettings(s: Synthesized): unknown {
  const pages = Object.entries(s.json.Resources).find(
    ([id, r]) => r.Type === 'Custom::CDKBucketDeployment' && id.startsWith('WebDeployPages'),
  );
  if (!pages) throw new Error('no DeployPages deployment');
  const props = pages[1].Properties as { SourceObjectKeys: string[]; SystemMetadata?: unknown };
  if (JSON.stringify(props.SystemMetadata) !== '{"cache-control":"no-cache"}')
    throw new Error('DeployPages is not no-cache');
  const found = props.SourceObjectKeys.map((k) =>
    join(s.app.outdir, `asset.${k.replace(/\.zip$/, '')}`, 'config.json'),
  ).filter((f) => existsSync(f));
  if (found.length !== 1)
    throw new Error(`expected one config.json among the page sources, got ${found.length}`);
  return JSON.parse(readFileSync(found[0]!, 'utf8'));
}
