import { Aws, CfnRule, Fn, type Stack, Token } from 'aws-cdk-lib';
import { ConfigError } from './portal-config';

/**
 * Regions whose S3 buckets CloudFront standard logging (legacy) does not deliver to, as the CloudFront
 * Developer Guide lists them ("Choosing an Amazon S3 bucket for your standard logs"): the opt-in
 * regions. The access-log bucket is in the stack's region, so the portal cannot be deployed there.
 */
export const CLOUDFRONT_NO_LOG_REGIONS = [
  'af-south-1',
  'ap-east-1',
  'ap-south-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ca-west-1',
  'eu-central-2',
  'eu-south-1',
  'eu-south-2',
  'il-central-1',
  'me-central-1',
  'me-south-1',
] as const;

const message = (region: string) =>
  `region ${region}: CloudFront delivers no access logs to S3 buckets in ${CLOUDFRONT_NO_LOG_REGIONS.join(', ')}, and the portal's access-log bucket is in the stack's region. Deploy the stage to another region (docs/infra.md, "Regions").`;

/** Throws when `region` is one CloudFront delivers no standard logs to. */
export function checkLogRegionName(region: string): void {
  if ((CLOUDFRONT_NO_LOG_REGIONS as readonly string[]).includes(region))
    throw new ConfigError(message(region));
}

/**
 * Fails the synth when the stack's region is known and one of CLOUDFRONT_NO_LOG_REGIONS; when the region
 * is left to the CLI profile (unknown at synth), a CloudFormation rule makes the deploy fail before any
 * resource is created.
 */
export function checkLogRegion(stack: Stack): void {
  if (!Token.isUnresolved(stack.region)) {
    checkLogRegionName(stack.region);
    return;
  }
  new CfnRule(stack, 'CloudFrontLogRegion', {
    assertions: [
      {
        assert: Fn.conditionNot(Fn.conditionContains([...CLOUDFRONT_NO_LOG_REGIONS], Aws.REGION)),
        assertDescription: message('of this deploy'),
      },
    ],
  });
}
