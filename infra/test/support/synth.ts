import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, type CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { EdgeStack } from '../../lib/edge-stack';
import { buildApp } from '../../lib/portal-app';
import { REPO_ROOT } from '../../lib/portal-config';
import type { PortalStack } from '../../lib/portal-stack';
import { STAGES } from '../../stages';

export interface Violation {
  ruleName: string;
  violatingConstructs: { constructPath: string }[];
}

type Json = Record<string, unknown>;

export interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Json } & Json>;
  Outputs?: Record<string, { Value: unknown } & Json>;
  Parameters?: Record<string, Json>;
  /** template rules (checked before anything is created): the root's */
  Rules?: Record<string, Json>;
}

/** One template of the app as written: the root stack's or a nested stack's. */
export interface StackTemplate {
  /** construct path of the stack */
  path: string;
  stack: Stack;
  json: TemplateJson;
}

export interface Synthesized {
  app: App;
  stack: PortalStack;
  /** the us-east-1 stack with the CloudFront web ACL (absent when the stage names its own webAclArn) */
  edge?: { stack: EdgeStack; json: TemplateJson };
  /** assertions on the merged set (every template's resources; see `json`) */
  template: Template;
  /**
   * The merged set: the resources of the root stack and of every nested stack, with the references that
   * cross a nested-stack boundary (parameters in, outputs out) replaced by what they stand for, so
   * `{ Ref: <table id> }` reads the same whichever stack a function is in. The outputs are the root's.
   */
  json: TemplateJson;
  /** each template as written, root first */
  templates: StackTemplate[];
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
 * The stage the infra tests build by default: dev as a long-lived stage after its first deploy (retained
 * data, protections, the trail and access logs on). The committed dev is throw-away and before its first
 * deploy; first-deploy.test.ts builds every committed stage as it is.
 */
export const LONG_LIVED_DEV = { ...STAGES.dev, deletionProtection: true, firstDeployDone: true };

/**
 * Synthesizes the portal once for a test file (`stages`: stage definitions instead of infra/stages.ts). Lambda bundling is skipped (`aws:cdk:bundling-stacks`):
 * 43 esbuild runs take minutes on a shared machine and say nothing about the template; `npm run synth`
 * bundles them all and bundling.test.ts bundles one through the same NodejsFunction settings.
 */
export function synthPortal(
  context: Record<string, unknown> = {},
  stages?: Readonly<Record<string, unknown>>,
): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'frp-infra-'));
  const { app, stack, edge } = buildApp(
    {
      context: {
        ...CDK_JSON_CONTEXT,
        'aws:cdk:bundling-stacks': [],
        // test-only: synthesize without `npm run build:web` (a deploy refuses the placeholder page)
        allowPlaceholderWeb: 'true',
        ...context,
      },
      outdir,
      stackTraces: false,
    },
    stages ?? { ...STAGES, dev: LONG_LIVED_DEV },
  );
  let synthError: Error | undefined;
  try {
    app.synth();
  } catch (e) {
    synthError = e as Error;
  }
  const templates = readTemplates(outdir, stack);
  const json = mergeTemplates(templates);
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
    edge: edge && {
      stack: edge,
      json: JSON.parse(readFileSync(join(outdir, edge.templateFile), 'utf8')) as TemplateJson,
    },
    json,
    templates,
    template: Template.fromJSON(json),
    nagViolations: report.pluginReports
      .filter((r) => r.pluginName === 'AwsSolutions')
      .flatMap((r) => r.violations),
    acknowledgements,
    synthError,
    logicalId: (construct) => Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement),
  };
}

/** The root template and every nested stack's (written next to it as an asset), root first. */
function readTemplates(outdir: string, root: Stack): StackTemplate[] {
  const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8')) as TemplateJson;
  const out: StackTemplate[] = [{ path: root.node.path, stack: root, json: read(root.templateFile) }];
  for (const c of root.node.findAll())
    if (c instanceof NestedStack) out.push({ path: c.node.path, stack: c, json: read(c.templateFile) });
  return out;
}

/** See Synthesized.json. Fails if two templates use one logical id (the merged set would be ambiguous). */
export function mergeTemplates(templates: StackTemplate[]): TemplateJson {
  const byStack = new Map(templates.map((t) => [t.stack, t]));
  const parentOf = (t: StackTemplate) => (t.stack as NestedStack).nestedStackParent;
  /** nested stack resource id in the parent → the nested template */
  const childrenOf = (t: StackTemplate) =>
    new Map(
      templates
        .filter((c) => c.stack.nested && parentOf(c) === t.stack)
        .map((c) => [t.stack.getLogicalId((c.stack as NestedStack).nestedStackResource!), c]),
    );
  const parametersOf = (t: StackTemplate): Json => {
    const parent = byStack.get(parentOf(t)!)!;
    const id = parent.stack.getLogicalId((t.stack as NestedStack).nestedStackResource!);
    return (parent.json.Resources[id]?.Properties?.Parameters ?? {}) as Json;
  };
  const deref = (t: StackTemplate, v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((x) => deref(t, x));
    if (v === null || typeof v !== 'object') return v;
    const o = v as Json;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.Ref === 'string' && t.stack.nested) {
      const params = parametersOf(t);
      if (o.Ref in params) return deref(byStack.get(parentOf(t)!)!, params[o.Ref]);
    }
    if (keys.length === 1 && Array.isArray(o['Fn::GetAtt'])) {
      const [id, attr] = o['Fn::GetAtt'] as [string, string];
      const child = childrenOf(t).get(id);
      if (child && attr.startsWith('Outputs.'))
        return deref(child, child.json.Outputs?.[attr.slice('Outputs.'.length)]?.Value);
    }
    return Object.fromEntries(keys.map((k) => [k, deref(t, o[k])]));
  };
  const Resources: TemplateJson['Resources'] = {};
  for (const t of templates)
    for (const [id, r] of Object.entries(t.json.Resources)) {
      if (id in Resources) throw new Error(`logical id ${id} is in two templates (${t.path})`);
      Resources[id] = deref(t, r) as TemplateJson['Resources'][string];
    }
  const root = templates[0]!;
  return {
    Resources,
    Outputs: deref(root, root.json.Outputs ?? {}) as TemplateJson['Outputs'],
    ...(root.json.Rules ? { Rules: root.json.Rules } : {}),
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
