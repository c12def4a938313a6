import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node } from 'constructs';
import { checkSiteSettings, SITE_SETTING_SOURCES, type SiteSettings } from '../../shared/site-settings';

/** Repository root: entries, the lock file and web/dist are found from here whatever the cwd. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Deployed when web/dist has not been built, so a fresh clone synthesizes without the web build. */
export const PLACEHOLDER_WEB_DIR = join(REPO_ROOT, 'infra', 'assets', 'placeholder-web');

/** Everything the stack takes from CDK context (cdk.json or `-c key=value`); see docs/infra.md. */
export interface PortalConfig {
  /** deployment name (dev, test, prod…): names the stack and the two named buckets */
  stage: string;
  /** custom domain of the portal; needs certificateArn */
  domainName?: string;
  /** ACM certificate for domainName, in us-east-1 (CloudFront) */
  certificateArn?: string;
  /** SES sender identity (From address of every mail) */
  senderAddress: string;
  /** domains users may register with; empty = any */
  allowedEmailDomains: string[];
  /** Object Lock compliance retention of the audit bucket */
  auditRetentionDays: number;
  /** DynamoDB deletion protection and RETAIN removal policies; off only for throw-away test stacks */
  deletionProtection: boolean;
  /** session token lifetime handed to the identity handlers; unset = the handlers' default */
  tokenTtlSeconds?: number;
  /** built SPA to deploy, or the placeholder when it was not built */
  webDir: string;
  /** true when webDir is the placeholder */
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
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const STAGE_RE = /^[a-z][a-z0-9-]{0,15}$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function str(node: Node, key: string): string | undefined {
  const v: unknown = node.tryGetContext(key);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ConfigError(`context ${key} must be a string, got ${JSON.stringify(v)}`);
}

/** `-c key=false` arrives as the string 'false'; cdk.json may hold a real boolean. */
function bool(node: Node, key: string, fallback: boolean): boolean {
  const v = str(node, key);
  if (v === undefined) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ConfigError(`context ${key} must be true or false, got '${v}'`);
}

function positiveInt(node: Node, key: string): number | undefined {
  const v = str(node, key);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(`context ${key} must be a positive integer, got '${v}'`);
  return n;
}

function list(node: Node, key: string): string[] {
  const v: unknown = node.tryGetContext(key);
  if (v === undefined || v === null || v === '') return [];
  const items = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return items.map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
}

/** Reads and checks the context once, so a typo fails the synth instead of a deploy. */
export function readConfig(node: Node): PortalConfig {
  const stage = str(node, 'stage') ?? 'dev';
  if (!STAGE_RE.test(stage))
    throw new ConfigError(`context stage must match ${STAGE_RE} (it names S3 buckets), got '${stage}'`);

  const domainName = str(node, 'domainName')?.toLowerCase();
  const certificateArn = str(node, 'certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined))
    throw new ConfigError('context domainName and certificateArn go together: give both or neither');
  if (domainName !== undefined && !DOMAIN_RE.test(domainName))
    throw new ConfigError(`context domainName is not a domain name: '${domainName}'`);
  // CloudFront only accepts certificates from us-east-1, whatever region the stack is in.
  if (
    certificateArn !== undefined &&
    !/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\//.test(certificateArn)
  )
    throw new ConfigError(
      `context certificateArn must be an ACM certificate in us-east-1, got '${certificateArn}'`,
    );

  const senderAddress = str(node, 'senderAddress') ?? 'firmware-portal@example.com';
  if (!EMAIL_RE.test(senderAddress))
    throw new ConfigError(`context senderAddress is not an email address: '${senderAddress}'`);

  const allowedEmailDomains = list(node, 'allowedEmailDomains');
  for (const d of allowedEmailDomains)
    if (!DOMAIN_RE.test(d)) throw new ConfigError(`context allowedEmailDomains: '${d}' is not a domain`);

  const auditRetentionDays = positiveInt(node, 'auditRetentionDays') ?? 2557;
  if (auditRetentionDays > 36500) throw new ConfigError('context auditRetentionDays is above 100 years');

  const webSetting = str(node, 'webDist') ?? 'web/dist';
  const builtWeb = isAbsolute(webSetting) ? webSetting : join(REPO_ROOT, webSetting);
  const webIsPlaceholder = !existsSync(join(builtWeb, 'index.html'));

  return {
    stage,
    domainName,
    certificateArn,
    senderAddress,
    allowedEmailDomains,
    auditRetentionDays,
    deletionProtection: bool(node, 'deletionProtection', true),
    tokenTtlSeconds: positiveInt(node, 'tokenTtlSeconds'),
    webDir: webIsPlaceholder ? PLACEHOLDER_WEB_DIR : builtWeb,
    webIsPlaceholder,
    bundleCache: bool(node, 'bundleCache', true),
    site: siteSettings(node),
    ...operationsSettings(node),
  };
}

const ROLE_ARN_RE = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
const TRAIL_ARN_RE = /^arn:aws[a-z-]*:cloudtrail:[a-z0-9-]+:\d{12}:trail\/[\w.-]{3,128}$/;
// CloudFront takes web ACLs of scope CLOUDFRONT, which live in us-east-1 ("global")
const WEB_ACL_ARN_RE = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]{1,128}\/[0-9a-f-]{36}$/;

/** The production-operations settings (signing key admin, trail, WAF, on-call address); all optional. */
function operationsSettings(
  node: Node,
): Pick<PortalConfig, 'signingKeyAdminRoleArn' | 'existingTrailArn' | 'webAclArn' | 'alarmEmail'> {
  const checked = (key: string, re: RegExp, what: string): string | undefined => {
    const v = str(node, key);
    if (v !== undefined && !re.test(v)) throw new ConfigError(`context ${key} must be ${what}, got '${v}'`);
    return v;
  };
  return {
    signingKeyAdminRoleArn: checked('signingKeyAdminRoleArn', ROLE_ARN_RE, 'an IAM role ARN'),
    existingTrailArn: checked('existingTrailArn', TRAIL_ARN_RE, 'a CloudTrail trail ARN'),
    webAclArn: checked(
      'webAclArn',
      WEB_ACL_ARN_RE,
      'the ARN of a WAF web ACL of scope CLOUDFRONT (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)',
    ),
    alarmEmail: checked('alarmEmail', EMAIL_RE, 'an email address'),
  };
}

/** The footer settings from context (companyName, companyAddress, privacyUrl, accessibilityUrl, termsUrl). */
function siteSettings(node: Node): SiteSettings {
  const raw = Object.fromEntries(
    Object.entries(SITE_SETTING_SOURCES).map(([key, source]) => [key, str(node, source.context)]),
  );
  const { settings, problems } = checkSiteSettings(raw);
  if (problems.length > 0) throw new ConfigError(`context: ${problems.join('; ')}`);
  return settings;
}
