import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles only (docs/decisions/132).
 * Lambda gives every function its role's credentials as AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 * AWS_SESSION_TOKEN, and the SDK's default chain tries exactly that source first; the rest of the chain
 * (SSO, INI files, IMDS, web identity and the STS/SSO clients they carry) is never reached there.
 */
export const defaultProvider: typeof fromEnv = (init) => fromEnv(init);
