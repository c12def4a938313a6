import {
  Aws,
  CfnOutput,
  CfnRule,
  DefaultStackSynthesizer,
  Duration,
  Fn,
  Lazy,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Stage } from '../../../shared/api/contracts/resources';
import { ConfigError, KMS_KEY_ARN_RE, type PortalConfig, STAGES_FILE } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';

export interface SigningProps {
  config: PortalConfig;
}

/**
 * What the account (and so IAM policies, the CloudFormation execution role included) may do with the
 * signing key: administer it, never sign with it, hand out grants, or schedule its deletion
 * (docs/decisions/205). Aliases need their key's permission too, so CDK can keep the alias.
 */
export const KEY_ACCOUNT_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListResourceTags',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:RevokeGrant',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateKeyDescription',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:CancelKeyDeletion',
] as const;

/** The public half is public (GET /signing-key serves it): IAM may grant reading it and verifying. */
export const KEY_PUBLIC_ACTIONS = ['kms:GetPublicKey', 'kms:Verify'] as const;

/** Days a scheduled deletion of the signing key waits (KMS's longest): time to notice and cancel. */
export const KEY_DELETION_WINDOW_DAYS = 30;

/**
 * The keys of the portal: the two KMS keys that sign packages (ECDSA P-256, private half never leaves
 * KMS) — the release key for RELEASE packages, the development key for DEV packages (decision 295) —,
 * the Secrets Manager secret holding the HMAC key set of session tokens (re-read every few minutes), and the
 * origin-verify secret CloudFront sends to the API.
 *
 * The signing key's policy is the signing key's own (docs/decisions/205): the account may administer it
 * and read its public half, only the roles given to `allowSigning` may sign (an explicit Deny refuses
 * kms:Sign to every other principal, whatever IAM or a grant says), and only the configured key admin
 * role and the deployment's own role may schedule its deletion, with the longest window.
 */
export class Signing extends Construct {
  /** the release key: the stack's own, or the stage's `signingKeyArn` imported (decision 263) */
  readonly packageKey: kms.IKey;
  /**
   * the development key (decision 295): always the stack's own. Devices in the field never trust it;
   * devices in a development mode trust it beside the release key.
   */
  readonly devKey: kms.Key;
  /**
   * true when the key is imported (`signingKeyArn`): its key policy is not the stack's, so who signs is
   * what the operator wrote there; `operatorKeyPolicy` is the statement to add (docs/infra.md)
   */
  readonly keyImported: boolean;
  readonly tokenSecret: secretsmanager.Secret;
  /** the value CloudFront adds to every API request, proving it passed CloudFront (docs/decisions/075) */
  readonly originVerifySecret: secretsmanager.Secret;
  /** ARNs of the roles that may sign with each key (the functions whose `uses.sign` names its stage) */
  private readonly signers: Record<Stage, string[]> = { RELEASE: [], DEV: [] };

  constructor(scope: Construct, id: string, props: SigningProps) {
    super(scope, id);
    const { config } = props;

    this.keyImported = config.signingKeyArn !== undefined;
    this.packageKey = config.signingKeyArn
      ? importedKey(this, config.signingKeyArn, config.stage)
      : this.ownKey(config, 'RELEASE');
    this.devKey = this.ownKey(config, 'DEV');
    new CfnOutput(Stack.of(this), 'DevSigningKeyId', {
      value: this.devKey.keyId,
      description:
        'KMS key that signs DEV packages (devices in a development mode trust it; devices in the field never do)',
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
      description: `Firmware Release Portal (${config.stage}): header value CloudFront adds to API requests; the API refuses requests without it`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      removalPolicy: statefulRemovalPolicy(config),
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront reads this value from the template at deploy time (a dynamic reference in the origin custom header), so a rotation takes effect with the deploy that names the new version (the stage setting originVerifySecretVersion); the API accepts AWSCURRENT and AWSPREVIOUS meanwhile (docs/operations.md). Without it no call reaches the API (decision 208).',
    });
  }

  /**
   * A stage's signing key of the stack's own, with the stack's key policy (decisions 205, 295): the
   * release key keeps the id, alias and description it had when it was the only key.
   */
  private ownKey(config: PortalConfig, stage: Stage): kms.Key {
    const release = stage === 'RELEASE';
    return new kms.Key(this, release ? 'PackageSigningKey' : 'DevPackageSigningKey', {
      description: release
        ? `Firmware Release Portal (${config.stage}): signs firmware packages (ECDSA P-256, SHA-256 digest)`
        : `Firmware Release Portal (${config.stage}): signs DEVELOPMENT firmware packages (ECDSA P-256, SHA-256 digest)`,
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      alias: release
        ? `alias/frp-${config.stage}-package-signing`
        : `alias/frp-${config.stage}-dev-package-signing`,
      // a policy of our own: CDK's default would give the account root kms:* (sign included)
      policy: new iam.PolicyDocument({ statements: this.keyStatements(config, stage) }),
      pendingWindow: Duration.days(KEY_DELETION_WINDOW_DAYS),
      // Devices in the field verify against this key: losing it with the stack would orphan them.
      removalPolicy: statefulRemovalPolicy(config),
    });
  }

  /**
   * For an imported key (`signingKeyArn`): the key-policy statements the operator must have in that key's
   * policy so the worker may sign, and nobody else (a JSON list, printed as the output
   * SigningKeyPolicyToAdd; docs/infra.md "Using an existing signing key"). The stack cannot write another
   * key's policy, so it cannot enforce them. Undefined for the stack's own key (its policy has them).
   */
  operatorKeyPolicy(): string | undefined {
    if (!this.keyImported) return undefined;
    return Stack.of(this).toJsonString(this.signStatements('RELEASE').map((st) => st.toStatementJson()));
  }

  /** The key that signs packages of `stage` (decision 295). */
  keyOf(stage: Stage): kms.IKey {
    return stage === 'RELEASE' ? this.packageKey : this.devKey;
  }

  /**
   * Lets the role with this ARN sign with the key of `stage`: that key's policy lets the account delegate
   * kms:Sign to this principal alone (its IAM policy must allow it too: grantUses), and the Deny
   * excepts it; the other key's policy does not name it. Called by grantUses for `uses.sign: <stage>`. The ARN is built from the role's fixed
   * name, not read from the role: the key then depends on no role, so no cycle arises when the key and
   * the signing function are in different (nested) stacks, and KMS never sees a principal that does not
   * exist yet.
   */
  allowSigning(stage: Stage, roleArn: string): void {
    const list = this.signers[stage];
    if (!list.includes(roleArn)) list.push(roleArn);
  }

  /** ARNs of the roles that may sign with the release key. */
  get signerRoleArns(): readonly string[] {
    return this.signers.RELEASE;
  }

  /** ARNs of the roles that may sign with the key of `stage`. */
  signerRoleArnsOf(stage: Stage): readonly string[] {
    return this.signers[stage];
  }

  /** Who signs with the key of `stage`: its signing roles through their IAM policy, and no one else (decision 205). */
  private signStatements(stage: Stage): iam.PolicyStatement[] {
    const signerArns = Lazy.list({ produce: () => [...this.signers[stage]] });
    return [
      new iam.PolicyStatement({
        sid: 'SigningRolesSign',
        principals: [new iam.AccountRootPrincipal()],
        actions: ['kms:Sign'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:PrincipalArn': signerArns } },
      }),
      // Whatever else grants it (a later IAM policy, a grant), only the signing roles sign.
      new iam.PolicyStatement({
        sid: 'OnlySigningRolesSign',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Sign'],
        resources: ['*'],
        conditions: { StringNotEquals: { 'aws:PrincipalArn': signerArns } },
      }),
    ];
  }

  private keyStatements(config: PortalConfig, stage: Stage): iam.PolicyStatement[] {
    const account = new iam.AccountRootPrincipal();
    const adminArn = config.signingKeyAdminRoleArn;
    const deployment = deploymentRoleArn(this);
    const deleters = [adminArn, deployment].filter((a): a is string => a !== undefined);
    const statements = [
      // Delegation to IAM for administration only: the CloudFormation execution role keeps
      // PutKeyPolicy (no lockout of the deployment), nobody gains Sign, CreateGrant or deletion from it.
      new iam.PolicyStatement({
        sid: 'AccountAdministersWithoutSigning',
        principals: [account],
        actions: [...KEY_ACCOUNT_ACTIONS],
        resources: ['*'],
      }),
      new iam.PolicyStatement({
        sid: 'AccountReadsPublicKey',
        principals: [account],
        actions: [...KEY_PUBLIC_ACTIONS],
        resources: ['*'],
      }),
      ...this.signStatements(stage),
      // Deletion would orphan every device: only the key admin role and the deployment itself (the
      // CloudFormation execution role: a failed first create or a throw-away stack deletes the key) may
      // schedule it, and only with the longest waiting period. The trail's alarm reports every scheduling.
      new iam.PolicyStatement({
        sid: 'OnlyKeyAdminOrDeploymentSchedulesDeletion',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:ScheduleKeyDeletion'],
        resources: ['*'],
        conditions: deleters.length > 0 ? { StringNotEquals: { 'aws:PrincipalArn': deleters } } : undefined,
      }),
    ];
    statements.push(...keyAdminStatements(adminArn, deleters));
    return statements;
  }
}

/**
 * Who may schedule the key's deletion (the key admin role and the deployment role, 30 days at least) and
 * the key admin's administration. Both roles are named in an `aws:PrincipalArn` condition on the account
 * principal, never as principals: KMS refuses a key policy whose Principal is a role that does not exist
 * (yet), which rolled the first deploy back (decision 306). Through the account principal each role needs
 * its own IAM permission for these actions too (an administrator role has it; docs/infra.md).
 */
function keyAdminStatements(adminArn: string | undefined, deleters: string[]): iam.PolicyStatement[] {
  const account = new iam.AccountRootPrincipal();
  const statements: iam.PolicyStatement[] = [];
  if (deleters.length > 0)
    statements.push(
      new iam.PolicyStatement({
        sid: 'DeletionWaitsThirtyDays',
        principals: [account],
        actions: ['kms:ScheduleKeyDeletion'],
        resources: ['*'],
        conditions: {
          StringEquals: { 'aws:PrincipalArn': deleters },
          NumericGreaterThanEquals: {
            'kms:ScheduleKeyDeletionPendingWindowInDays': KEY_DELETION_WINDOW_DAYS,
          },
        },
      }),
    );
  if (adminArn)
    statements.push(
      new iam.PolicyStatement({
        sid: 'KeyAdministrator',
        principals: [account],
        actions: [...KEY_ACCOUNT_ACTIONS],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:PrincipalArn': [adminArn] } },
      }),
    );
  return statements;
}

/** The CloudFormation execution role of the CDK bootstrap (cdk-<qualifier>-cfn-exec-role-…), if that is the synthesizer. */
function deploymentRoleArn(scope: Construct): string | undefined {
  const synthesizer = Stack.of(scope).synthesizer;
  // the bootstrap's name pattern carries ${AWS::…} placeholders: CloudFormation fills them in (Fn::Sub)
  return synthesizer instanceof DefaultStackSynthesizer
    ? Fn.sub(synthesizer.cloudFormationExecutionRoleArn)
    : undefined;
}

/**
 * The stage's existing signing key (decision 263). The ARN's form was checked with the stage settings
 * (and against the stage's `account`/`region` when it pins them); here against the stack's environment:
 * at synth when it is known, else by a template rule that fails the deploy before anything is created.
 * No alias is made: the key and its alias are the operator's (the old stack's alias went with it).
 */
function importedKey(scope: Construct, arn: string, stage: string): kms.IKey {
  const match = KMS_KEY_ARN_RE.exec(arn);
  if (!match)
    throw new ConfigError(`${STAGES_FILE}, stage ${stage}: signingKeyArn is not a KMS key ARN: '${arn}'`);
  const [, keyRegion, keyAccount] = match as unknown as [string, string, string];
  const stack = Stack.of(scope);
  const wrong = (what: string, key: string, stackValue: string) =>
    `${STAGES_FILE}, stage ${stage}: signingKeyArn is a key of ${what} ${key}, but the stack deploys to ${what} ${stackValue}: the signing key must be in the stack's account and region`;
  if (!Token.isUnresolved(stack.region) && stack.region !== keyRegion)
    throw new ConfigError(wrong('region', keyRegion, stack.region));
  if (!Token.isUnresolved(stack.account) && stack.account !== keyAccount)
    throw new ConfigError(wrong('account', keyAccount, stack.account));
  if (Token.isUnresolved(stack.region) || Token.isUnresolved(stack.account))
    new CfnRule(stack, 'SigningKeyInStackAccountAndRegion', {
      assertions: [
        {
          assert: Fn.conditionAnd(
            Fn.conditionEquals(Aws.REGION, keyRegion),
            Fn.conditionEquals(Aws.ACCOUNT_ID, keyAccount),
          ),
          assertDescription: `signingKeyArn (${STAGES_FILE}, stage ${stage}) is a key of account ${keyAccount} in ${keyRegion}: deploy this stage there, or name a key of this account and region`,
        },
      ],
    });
  return kms.Key.fromKeyArn(scope, 'PackageSigningKey', arn);
}
