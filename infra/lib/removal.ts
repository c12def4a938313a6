import { RemovalPolicy } from 'aws-cdk-lib';
import type { PortalConfig } from './portal-config';

/**
 * Removal policy of stateful resources (tables, buckets, the signing key, the token secret, log groups).
 * `RETAIN_ON_UPDATE_OR_DELETE` (CloudFormation `RetainExceptOnCreate`) keeps them on stack deletion and
 * replacement, but lets CloudFormation delete what it had just created when the first create rolls back:
 * nothing is left behind to make the next deploy fail with "already exists" (decision 092).
 * Throw-away test stacks (deletionProtection false) are deleted with the stack.
 */
export function statefulRemovalPolicy(config: Pick<PortalConfig, 'deletionProtection'>): RemovalPolicy {
  return config.deletionProtection ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}

/**
 * Kept whatever the settings (the Object Lock audit bucket, the SES sender identity), yet not left over by
 * a failed first create.
 */
export const ALWAYS_KEPT = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
