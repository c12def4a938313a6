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
 * KMS), the Secrets Manager secret holding the HMAC key set of session tokens (re-read every few minutes), and the
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
        'The token key set (current and previous key, by kid) is rotated by an operator in two steps a token lifetime apart (rotate, then retire: npm run ops:rotate-token-key, docs/operations.md); warm functions re-read it every few minutes. A scheduled single-step rotation would drop the previous key under live sessions.',
    });

    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerifySecret', {
      description: `Firmware Release Portal (${config.stage}): header value CloudFront adds to API requests, so the API may trust CloudFront-Viewer-Address`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      removalPolicy: statefulRemovalPolicy(config),
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront reads this value from the template at deploy time (a dynamic reference in the origin custom header), so a rotation takes effect with the deploy that names the new version (context originVerifySecretVersion); the API accepts AWSCURRENT and AWSPREVIOUS meanwhile (docs/operations.md). Its only power is to make the API trust the viewer address for rate limits.',
    });
  }
}
