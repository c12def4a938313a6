import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from './portal-config';
import { PortalStack } from './portal-stack';

/** Stack name for a deployment stage: several stages can live in one account. */
export const stackName = (stage: string): string => `FirmwareReleasePortal-${stage}`;

/**
 * The CDK app as both `cdk synth` (infra/bin/app.ts) and the tests build it: config from context, one
 * stack, and cdk-nag's AwsSolutions pack as a validation plugin (violations fail the synth).
 */
export function buildApp(props: AppProps = {}): { app: App; stack: PortalStack } {
  const app = new App(props);
  const config = readConfig(app.node);
  const stack = new PortalStack(app, stackName(config.stage), {
    config,
    description: `Firmware Release Portal (${config.stage}): SPA, API, data, signing`,
    // Account and region come from the CLI profile at deploy; synth needs neither (offline, no credentials).
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    tags: { project: 'firmware-release-portal', stage: config.stage },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
