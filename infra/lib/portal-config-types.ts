import type { SiteSettings } from '../../shared/site-settings';
import type { IdentityProviderConfig, IdentityProviderSettings } from './portal-config-identity';

/*
 * The shapes of the stack's settings (split from portal-config.ts, which reads and checks them, to keep
 * each file under 400 lines). portal-config.ts re-exports them: import from there.
 */

/**
 * How the stack gets its SES sender identity (docs/infra.md, "Mail (SES)"):
 * - `create-domain`: the stack creates the identity of the sender's domain with Easy DKIM and prints the
 *   three DKIM CNAME records (outputs DkimRecord1..3); the sender address needs no verification of its own;
 * - `create-address`: the stack creates an identity of the sender address (SES mails it a link); no DKIM
 *   of its own, so mail to domains that enforce DMARC may be junked;
 * - `adopt-domain` / `adopt-address`: the identity already exists in SES (made by hand or by another
 *   stack): the stack creates nothing and only grants sending with it (creating it again fails the deploy
 *   with AlreadyExists).
 */
export type SesIdentityMode = 'create-domain' | 'create-address' | 'adopt-domain' | 'adopt-address';
export const SES_IDENTITY_MODES: readonly SesIdentityMode[] = [
  'create-domain',
  'create-address',
  'adopt-domain',
  'adopt-address',
];

/**
 * One stage's settings as written in infra/stages.ts. Every field is checked when the app is built:
 * `npx tsx` (what `cdk` runs) does not type-check, so a missing or wrong required setting fails the synth
 * with a message naming it.
 */
export interface StageSettings {
  /** AWS account the stage deploys to (12 digits); a deploy with credentials of another account fails */
  account?: string;
  /** AWS region of the stage; without it, the CLI profile's region */
  region?: string;
  /** custom domain of the portal; needs certificateArn */
  domainName?: string;
  /** ACM certificate for domainName, in us-east-1 (CloudFront) */
  certificateArn?: string;
  /** required: the From address of every mail */
  senderAddress: string;
  /** required: create or adopt the SES identity (SesIdentityMode) */
  sesIdentity: SesIdentityMode;
  /** required: whether the account is still in the SES sandbox in this region */
  sesSandbox: boolean;
  /** in the sandbox: the verified identities (addresses or domains) mail may go to */
  sesSandboxRecipients?: string[];
  /** required: domains users may register with; `[]` means any domain (written out on purpose) */
  allowedEmailDomains: string[];
  /** Object Lock compliance retention of the audit bucket (default 2557 days, seven years) */
  auditRetentionDays?: number;
  /** required: DynamoDB deletion protection and retained stateful resources; false only for throw-away stages */
  deletionProtection: boolean;
  /**
   * required with deletionProtection: false until the stage's first deploy has succeeded. While false,
   * the tables are created without DynamoDB deletion protection, so a failed first create can roll back
   * (decision 200); set it to true after that deploy and deploy again.
   */
  firstDeployDone?: boolean;
  /**
   * required: CloudFormation termination protection of the stack (must be true for prod); like the
   * tables' deletion protection it takes effect once firstDeployDone is true
   */
  terminationProtection: boolean;
  /** session token lifetime handed to the identity handlers; unset = the handlers' default */
  /**
   * the Secrets Manager version of the origin-verify secret CloudFront sends (unset: the current one when
   * the distribution was last updated); naming the new version after a rotation changes the template, so
   * the deploy hands CloudFront the new value (docs/operations.md, decision 216)
   */
  originVerifySecretVersion?: string;
  /** IAM role that administers the signing key and alone may schedule its deletion (decision 205) */
  signingKeyAdminRoleArn?: string;
  /**
   * an existing KMS signing key (ECC_NIST_P256, SIGN_VERIFY) in the stage's account and region that the
   * stack imports instead of creating one: the key devices already trust survives a replaced stack
   * (decision 263, docs/infra.md "Signing key"); its key policy is then the operator's
   */
  signingKeyArn?: string;
  /** an existing CloudTrail trail recording this account's management events; unset = the stack's own */
  existingTrailArn?: string;
  /**
   * an existing WAF web ACL of scope CLOUDFRONT (us-east-1) to use instead of the one the app's edge
   * stack makes (e.g. one a Firewall Manager policy owns); unset = the edge stack (decision 305)
   */
  webAclArn?: string;
  /** on-call address subscribed to the alarm topic (docs/operations.md) */
  alarmEmail?: string;
  /**
   * the previous origin-verify secret version, during a rotation only: the API stage's web ACL accepts
   * it besides originVerifySecretVersion while CloudFront's change reaches every edge (decision 308)
   */
  originVerifyPreviousSecretVersion?: string;
  /** days a replaced or deleted generated package (a noncurrent artefact version) is kept; default 365 */
  artefactNoncurrentDays?: number;
  /** days an upload nobody confirmed stays under staging/ of the resources bucket; default 1 */
  stagingUploadDays?: number;
  /** monthly AWS Budget of the account in USD; alarms at 80 % forecast and 100 % actual; default 100 */
  monthlyBudgetUsd?: number;
  tokenTtlSeconds?: number;
  /**
   * the company's OpenID provider people may sign in with ("Sign in with <name>", decision 315); unset: the
   * portal's own passwords only
   */
  identityProvider?: IdentityProviderSettings;
  /**
   * passkeys for signatures (decision 322): when true, every role that approves, signs or delivers and the
   * admins confirm each signature with a passkey (user verified), never the password alone; unset = false
   */
  requirePasskeys?: boolean;
  /**
   * the committed approval policy the stage runs, by name (shared/domain/approval-policies.ts,
   * docs/approval-policy.md); unset: 'spec', the specification's rules
   */
  approvalPolicy?: string;
  /** footer settings (shared/site-settings.ts); unset ones take the defaults */
  site?: Partial<Record<keyof SiteSettings, string>>;
}

/** Everything the stack is built from: one stage's checked settings plus the build inputs. */
export interface PortalConfig {
  /** deployment name (dev, staging, prod…): names the stack and the two named buckets */
  stage: string;
  account?: string;
  region?: string;
  domainName?: string;
  certificateArn?: string;
  senderAddress: string;
  /** the domain of senderAddress */
  senderDomain: string;
  sesIdentity: SesIdentityMode;
  sesSandbox: boolean;
  /** verified recipient identities in the sandbox (empty outside it) */
  sesSandboxRecipients: string[];
  /** domains users may register with; empty = any */
  allowedEmailDomains: string[];
  auditRetentionDays: number;
  /** retained stateful resources (RetainExceptOnCreate) and, once firstDeployDone, DynamoDB deletion protection */
  deletionProtection: boolean;
  /** DynamoDB deletion protection on the tables: deletionProtection && firstDeployDone (decision 200) */
  tableDeletionProtection: boolean;
  /** termination protection of the stack as deployed: the setting, once firstDeployDone */
  terminationProtection: boolean;
  originVerifySecretVersion?: string;
  tokenTtlSeconds?: number;
  /** built SPA to deploy */
  webDir: string;
  /** true when webDir is the placeholder (test synths only: allowPlaceholderWeb) */
  webIsPlaceholder: boolean;
  /** reuse Lambda bundles whose inputs did not change (false: rebuild every bundle on every synth) */
  bundleCache: boolean;
  /** footer settings, written next to the SPA as config.json (shared/site-settings.ts) */
  site: SiteSettings;
  /**
   * IAM role that administers the package signing key and alone may schedule its deletion (30 days);
   * it can never sign (docs/decisions/205, docs/infra.md "Signing key")
   */
  signingKeyAdminRoleArn?: string;
  /**
   * an existing package signing key to import (kms.Key.fromKeyArn) instead of creating one; its key policy
   * is not the stack's: the operator adds the signing statement the stack prints (decision 263)
   */
  signingKeyArn?: string;
  /**
   * an existing CloudTrail trail that records this account's management events (KMS use included) in
   * this region; unset = the stack creates its own trail (docs/decisions/206)
   */
  existingTrailArn?: string;
  /**
   * an existing AWS WAF web ACL of scope CLOUDFRONT (us-east-1) for the distribution; unset = the stack
   * creates one, which needs the stack in us-east-1 (docs/decisions/207)
   */
  webAclArn?: string;
  /** on-call address subscribed to the alarm topic (docs/operations.md); unset = no subscription yet */
  alarmEmail?: string;
  /**
   * the stage's first deploy has succeeded: the protections (decision 200) and whatever writes into a
   * bucket on its own (the trail, S3 and CloudFront access logs) are on from the deploy after it, so a
   * failed first create rolls back to nothing (decision 307)
   */
  firstDeployDone: boolean;
  originVerifyPreviousSecretVersion?: string;
  artefactNoncurrentDays: number;
  stagingUploadDays: number;
  monthlyBudgetUsd: number;
  /** the company identity provider, checked (portal-config-identity.ts) */
  identityProvider?: IdentityProviderConfig;
  /** the deciding roles and admins sign only with a passkey (decision 322) */
  requirePasskeys: boolean;
  /** the approval policy's name, checked: every function reads it as APPROVAL_POLICY, the SPA from config.json */
  approvalPolicy: string;
}
