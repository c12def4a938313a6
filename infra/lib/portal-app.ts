import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { STAGES } from '../stages';
import { EDGE_REGION, edgeStackName } from './constructs/edge';
import { EdgeStack } from './edge-stack';
import { readConfig } from './portal-config';
import { PortalStack } from './portal-stack';
import { checkLogRegion, checkLogRegionName } from './regions';

/** Stack name for a deployment stage: several stages can live in one account. */
export const stackName = (stage: string): string => `FirmwareReleasePortal-${stage}`;

/**
 * The CDK app as both `cdk synth` (infra/bin/app.ts) and the tests build it: the stage's settings from
 * infra/stages.ts (`-c stage=…`), the edge stack in us-east-1 (the CloudFront web ACL, decision 305)
 * unless the stage names its own ACL, the portal stack with its nested stacks, and cdk-nag's
 * AwsSolutions pack as a validation plugin (violations fail the synth). `stages`: other stage
 * definitions, for tests.
 */
export function buildApp(
  props: AppProps = {},
  stages: Readonly<Record<string, unknown>> = STAGES,
): { app: App; stack: PortalStack; edge?: EdgeStack } {
  const app = new App(props);
  const config = readConfig(app.node, stages);
  // before any construct: a stage in a region without CloudFront logs fails at once (no bundling first)
  if (config.region !== undefined) checkLogRegionName(config.region);
  const account = config.account ?? process.env.CDK_DEFAULT_ACCOUNT;
  const tags = { project: 'firmware-release-portal', stage: config.stage };
  const edge =
    config.webAclArn === undefined
      ? new EdgeStack(app, edgeStackName(config.stage), {
          stage: config.stage,
          description: `Firmware Release Portal (${config.stage}): CloudFront web ACL (us-east-1)`,
          env: { account, region: EDGE_REGION },
          terminationProtection: config.terminationProtection,
          tags,
        })
      : undefined;
  const stack = new PortalStack(app, stackName(config.stage), {
    config,
    description: `Firmware Release Portal (${config.stage}): SPA, API, data, signing`,
    // The stage's account and region when infra/stages.ts pins them (a deploy with credentials of another
    // account then fails), else the CLI profile's; synth needs neither (offline, no credentials).
    env: { account, region: config.region ?? process.env.CDK_DEFAULT_REGION },
    terminationProtection: config.terminationProtection,
    tags,
  });
  // the portal stack reads the edge stack's output when it deploys: `cdk deploy --all` orders them
  if (edge) stack.addStackDependency(edge, 'reads the CloudFront web ACL ARN (Fn::GetStackOutput)');
  checkLogRegion(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, edge };
}
