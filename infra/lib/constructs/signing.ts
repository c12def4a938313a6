import { Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { PortalConfig } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';

export interface SigningProps {
  config: PortalConfig;
}

/**
 * The keys of the portal: the KMS key that signs packages (ECDSA P-256, private half never leaves
 * KMS), the Secrets Manager secret holding the HMAC key of session tokens (read at cold start), and the
 * origin-verify secret CloudFront sends to the API.
 */
export class Signing extends Construct {
  readonly packageKey: kms.Key;
  readonly tokenSecret: secretsmanager.Secret;
  /** the value CloudFront adds to every API request, proving it passed CloudFront (docs/decisions/075) */
  readonly originVerifySecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: SigningProps) {
    super(scope, id);
    const { config } = props;

    this.packageKey = new kms.Key(this, 'PackageSigningKey', {
      description: `Firmware Release Portal (${config.stage}): signs firmware packages (ECDSA P-256, SHA-256 digest)`,
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      alias: `alias/frp-${config.stage}-package-signing`,
      // Devices in the field verify against this key: losing it with the stack would orphan them.
      removalPolicy: statefulRemovalPolicy(config),
    });

    this.tokenSecret = new secretsmanager.Secret(this, 'TokenSecret', {
      description: `Firmware Release Portal (${config.stage}): HMAC key of session tokens (JWT HS256)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: statefulRemovalPolicy(config),
    });
    Validations.of(this.tokenSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The token HMAC key is read once per Lambda cold start and every live session is signed with it: a scheduled rotation would sign everyone out at random and leave warm functions on the old key. Rotation is a planned operation (docs/infra.md: put a new value, then redeploy to recycle functions).',
    });

    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerifySecret', {
      description: `Firmware Release Portal (${config.stage}): header value CloudFront adds to API requests, so the API may trust CloudFront-Viewer-Address`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      removalPolicy: statefulRemovalPolicy(config),
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront reads this value from the template at deploy time (a dynamic reference in the origin custom header), so a rotation only takes effect with the next deploy; rotate by putting a new value and redeploying (docs/decisions/075-real-client-source.md). Its only power is to make the API trust the viewer address for rate limits.',
    });
  }
}
