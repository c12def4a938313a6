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
 * The two keys of the portal: the KMS key that signs packages (ECDSA P-256, private half never leaves
 * KMS) and the Secrets Manager secret holding the HMAC key of session tokens (read at cold start).
 */
export class Signing extends Construct {
  readonly packageKey: kms.Key;
  readonly tokenSecret: secretsmanager.Secret;

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
  }
}
