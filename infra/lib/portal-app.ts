import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { STAGES } from '../stages';
import { readConfig } from './portal-config';
import { PortalStack } from './portal-stack';
import { checkLogRegion, checkLogRegionName } from './regions';

/** Stack name for a deployment stage: several stages can live in one account. */
export const stackName = (stage: string): string => `FirmwareReleasePortal-${stage}`;

/**
 * The CDK app as both `cdk synth` (infra/bin/app.ts) and the tests build it: the stage's settings from
 * infra/stages.ts (`-c stage=…`), one stack with its nested stacks, and cdk-nag's AwsSolutions pack as a
 * validation plugin (violations fail the synth). `stages`: other stage definitions, for tests.
 */
export function buildApp(
  props: AppProps = {},
  stages: Readonly<Record<string, unknown>> = STAGES,
): { app: App; stack: PortalStack } {
  const app = new App(props);
  const config = readConfig(app.node, stages);
  // before any construct: a stage in a region without CloudFront logs fails at once (no bundling first)
  if (config.region !== undefined) checkLogRegionName(config.region);
  const stack = new PortalStack(app, stackName(config.stage), {
    config,
    description: `Firmware Release Portal (${config.stage}): SPA, API, data, signing`,
    // The stage's account and region when infra/stages.ts pins them (a deploy with credentials of another
    // account then fails), else the CLI profile's; synth needs neither (offline, no credentials).
    env: {
      account: config.account ?? process.env.CDK_DEFAULT_ACCOUNT,
      region: config.region ?? process.env.CDK_DEFAULT_REGION,
    },
    terminationProtection: config.terminationProtection,
    tags: { project: 'firmware-release-portal', stage: config.stage },
  });
  checkLogRegion(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
