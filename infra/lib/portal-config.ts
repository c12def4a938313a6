import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node } from 'constructs';
import { approvalPolicyNamed, DEFAULT_APPROVAL_POLICY } from '../../shared/domain/approval-policies';
import { checkSiteSettings } from '../../shared/site-settings';
import { checkIdentityProvider } from './portal-config-identity';
import { type PortalConfig, SES_IDENTITY_MODES, type SesIdentityMode } from './portal-config-types';

/** Repository root: entries, the lock file and web/dist are found from here whatever the cwd. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** A page that says "not built": only test synths (allowPlaceholderWeb) use it, never a deploy. */
export const PLACEHOLDER_WEB_DIR = join(REPO_ROOT, 'infra', 'assets', 'placeholder-web');

/** The committed file of per-stage settings (infra/stages.ts), as messages name it. */
export const STAGES_FILE = 'infra/stages.ts';

// the settings' shapes live in portal-config-types.ts (each file under 400 lines); import them from here
export {
  type PortalConfig,
  SES_IDENTITY_MODES,
  type SesIdentityMode,
  type StageSettings,
} from './portal-config-types';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const STAGE_RE = /^[a-z][a-z0-9-]{0,15}$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const REGION_RE = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/** Context keys a command may still give; every stage setting comes from infra/stages.ts. */
export const CONTEXT_KEYS = ['stage', 'webDist', 'bundleCache', 'allowPlaceholderWeb'] as const;

/** Every setting a stage of infra/stages.ts may hold (checkStage refuses any other key). */
const STAGE_SETTING_KEYS = [
  'account',
  'region',
  'domainName',
  'certificateArn',
  'senderAddress',
  'sesIdentity',
  'sesSandbox',
  'sesSandboxRecipients',
  'allowedEmailDomains',
  'auditRetentionDays',
  'deletionProtection',
  'firstDeployDone',
  'terminationProtection',
  'tokenTtlSeconds',
  'originVerifySecretVersion',
  'signingKeyAdminRoleArn',
  'signingKeyArn',
  'existingTrailArn',
  'webAclArn',
  'alarmEmail',
  'originVerifyPreviousSecretVersion',
  'artefactNoncurrentDays',
  'stagingUploadDays',
  'monthlyBudgetUsd',
  'identityProvider',
  'requirePasskeys',
  'approvalPolicy',
  'site',
] as const;

/**
 * Stage settings given as `-c` flags (as they used to be) are refused, so an old command line cannot
 * half-apply; so are the footer settings, which moved under `site`.
 */
const MOVED_TO_STAGES_FILE = [
  ...STAGE_SETTING_KEYS.filter((k) => k !== 'site'),
  'companyName',
  'companyAddress',
  'privacyUrl',
  'accessibilityUrl',
  'termsUrl',
];

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

/**
 * Reads `-c stage=…`, takes that stage's settings from `stages` (infra/stages.ts) and checks them, so a
 * missing or wrong setting fails the synth instead of the deploy.
 */
export function readConfig(node: Node, stages: Readonly<Record<string, unknown>>): PortalConfig {
  for (const key of MOVED_TO_STAGES_FILE)
    if (node.tryGetContext(key) !== undefined)
      throw new ConfigError(
        `context ${key} is no longer read: set ${key} for the stage in ${STAGES_FILE} and deploy with -c stage=<stage> alone`,
      );

  const stage = str(node, 'stage') ?? 'dev';
  if (!STAGE_RE.test(stage))
    throw new ConfigError(`context stage must match ${STAGE_RE} (it names S3 buckets), got '${stage}'`);
  const raw = stages[stage];
  if (raw === undefined || raw === null || typeof raw !== 'object')
    throw new ConfigError(
      `stage '${stage}' is not in ${STAGES_FILE} (stages there: ${Object.keys(stages).join(', ')})`,
    );
  const settings = checkStage(stage, raw as Record<string, unknown>);

  const webSetting = str(node, 'webDist') ?? 'web/dist';
  const builtWeb = isAbsolute(webSetting) ? webSetting : join(REPO_ROOT, webSetting);
  const webIsPlaceholder = !existsSync(join(builtWeb, 'index.html'));
  // A deploy without the built SPA would replace the live portal with a placeholder page.
  if (webIsPlaceholder && !bool(node, 'allowPlaceholderWeb', false))
    throw new ConfigError(
      `${webSetting}/index.html not found: the SPA is not built. Run \`npm run build:web\`, then synth or deploy again.`,
    );

  return {
    ...settings,
    webDir: webIsPlaceholder ? PLACEHOLDER_WEB_DIR : builtWeb,
    webIsPlaceholder,
    bundleCache: bool(node, 'bundleCache', true),
  };
}

/** One stage of infra/stages.ts, checked: everything the stack is built from but the build inputs. */
export type StageConfig = Omit<PortalConfig, 'webDir' | 'webIsPlaceholder' | 'bundleCache'>;

const ROLE_ARN_RE = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
/** a KMS key ARN (not an alias): partition, region, account, key id (a UUID or a multi-Region `mrk-` id) */
export const KMS_KEY_ARN_RE =
  /^arn:aws[a-z-]*:kms:([a-z]{2}(?:-gov)?-[a-z]+-\d):(\d{12}):key\/((?:mrk-[0-9a-f]{32})|(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))$/;
const TRAIL_ARN_RE = /^arn:aws[a-z-]*:cloudtrail:[a-z0-9-]+:\d{12}:trail\/[\w.-]{3,128}$/;
// CloudFront takes web ACLs of scope CLOUDFRONT, which live in us-east-1 ("global")
const WEB_ACL_ARN_RE = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]{1,128}\/[0-9a-f-]{36}$/;

/** Checks one stage's settings (exported for the tests of infra/stages.ts). */
export function checkStage(stage: string, s: Record<string, unknown>): StageConfig {
  const at = (key: string) => `${STAGES_FILE}, stage ${stage}: ${key}`;
  const missing = (key: string, what: string) =>
    new ConfigError(`${at(key)} is required (${what}) and missing`);

  const known = new Set<string>(STAGE_SETTING_KEYS);
  for (const key of Object.keys(s))
    if (!known.has(key)) throw new ConfigError(`${at(key)} is not a setting (a typo?)`);

  const optString = (key: string): string | undefined => {
    const v = s[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.trim() === '')
      throw new ConfigError(`${at(key)} must be a non-empty string`);
    return v.trim();
  };
  const checked = (key: string, re: RegExp, what: string): string | undefined => {
    const v = optString(key);
    if (v !== undefined && !re.test(v)) throw new ConfigError(`${at(key)} must be ${what}, got '${v}'`);
    return v;
  };
  const reqBool = (key: string, what: string): boolean => {
    const v = s[key];
    if (v === undefined) throw missing(key, what);
    if (typeof v !== 'boolean') throw new ConfigError(`${at(key)} must be true or false`);
    return v;
  };
  const optBool = (key: string): boolean => {
    const v = s[key];
    if (v === undefined) return false;
    if (typeof v !== 'boolean')
      throw new ConfigError(`${at(key)} must be true or false, got ${JSON.stringify(v)}`);
    return v;
  };
  const optPositiveInt = (key: string): number | undefined => {
    const v = s[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      throw new ConfigError(`${at(key)} must be a positive integer, got ${JSON.stringify(v)}`);
    return v;
  };
  const domainList = (key: string, v: unknown, allowAddresses: boolean): string[] => {
    if (!Array.isArray(v)) throw new ConfigError(`${at(key)} must be a list`);
    return v.map((x) => {
      const item = String(x).trim().toLowerCase();
      if (!DOMAIN_RE.test(item) && !(allowAddresses && EMAIL_RE.test(item)))
        throw new ConfigError(`${at(key)}: '${item}' is not a domain${allowAddresses ? ' or address' : ''}`);
      return item;
    });
  };

  const account = optString('account');
  if (account !== undefined && !/^\d{12}$/.test(account))
    throw new ConfigError(`${at('account')} must be a 12-digit AWS account id`);
  const region = optString('region');
  if (region !== undefined && !REGION_RE.test(region))
    throw new ConfigError(`${at('region')} is not an AWS region: '${region}'`);

  const domainName = optString('domainName')?.toLowerCase();
  const certificateArn = optString('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined))
    throw new ConfigError(`${at('domainName')} and certificateArn go together: give both or neither`);
  if (domainName !== undefined && !DOMAIN_RE.test(domainName))
    throw new ConfigError(`${at('domainName')} is not a domain name: '${domainName}'`);
  // CloudFront only accepts certificates from us-east-1, whatever region the stack is in.
  if (
    certificateArn !== undefined &&
    !/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\//.test(certificateArn)
  )
    throw new ConfigError(
      `${at('certificateArn')} must be an ACM certificate in us-east-1, got '${certificateArn}'`,
    );

  const senderAddress = optString('senderAddress')?.toLowerCase();
  if (senderAddress === undefined) throw missing('senderAddress', 'the From address of every mail');
  if (!EMAIL_RE.test(senderAddress))
    throw new ConfigError(`${at('senderAddress')} is not an email address: '${senderAddress}'`);
  const senderDomain = senderAddress.slice(senderAddress.lastIndexOf('@') + 1);

  const sesIdentity = s.sesIdentity;
  if (sesIdentity === undefined) throw missing('sesIdentity', `one of ${SES_IDENTITY_MODES.join(', ')}`);
  if (!SES_IDENTITY_MODES.includes(sesIdentity as SesIdentityMode))
    throw new ConfigError(`${at('sesIdentity')} must be one of ${SES_IDENTITY_MODES.join(', ')}`);
  const sesSandbox = reqBool('sesSandbox', 'whether the account is in the SES sandbox');
  const sesSandboxRecipients =
    s.sesSandboxRecipients === undefined
      ? []
      : domainList('sesSandboxRecipients', s.sesSandboxRecipients, true);
  if (sesSandbox && sesSandboxRecipients.length === 0)
    throw new ConfigError(
      `${at('sesSandboxRecipients')} is required in the SES sandbox: the verified identities (addresses or domains) the portal may mail`,
    );
  if (!sesSandbox && sesSandboxRecipients.length > 0)
    throw new ConfigError(`${at('sesSandboxRecipients')} is only for the SES sandbox (sesSandbox is false)`);

  if (s.allowedEmailDomains === undefined)
    throw missing('allowedEmailDomains', 'the domains users may register with; [] allows any');
  const allowedEmailDomains = domainList('allowedEmailDomains', s.allowedEmailDomains, false);

  const auditRetentionDays = optPositiveInt('auditRetentionDays') ?? 2557;
  if (auditRetentionDays > 36500) throw new ConfigError(`${at('auditRetentionDays')} is above 100 years`);

  const deletionProtection = reqBool('deletionProtection', 'false only for throw-away stages');
  const firstDeployDone =
    s.firstDeployDone === undefined && !deletionProtection
      ? false
      : reqBool('firstDeployDone', 'false until the first deploy of the stage has succeeded, then true');
  const terminationProtection = reqBool('terminationProtection', 'true for prod');
  if (stage === 'prod' && (!terminationProtection || !deletionProtection))
    throw new ConfigError(`${at('terminationProtection')} and deletionProtection must be true for prod`);
  if (stage === 'prod' && s.alarmEmail === undefined)
    throw missing('alarmEmail', 'the on-call address every alarm of prod is mailed to');

  const versionId = (key: string): string | undefined => {
    const v = optString(key);
    if (v !== undefined && !/^[A-Za-z0-9-]{32,64}$/.test(v))
      throw new ConfigError(`${at(key)} must be a Secrets Manager version id, got '${v}'`);
    return v;
  };
  const originVerifySecretVersion = versionId('originVerifySecretVersion');
  const originVerifyPreviousSecretVersion = versionId('originVerifyPreviousSecretVersion');
  // the previous value is accepted only while a rotation names the new one (docs/operations.md)
  if (originVerifyPreviousSecretVersion !== undefined && originVerifySecretVersion === undefined)
    throw new ConfigError(
      `${at('originVerifyPreviousSecretVersion')} goes with originVerifySecretVersion (the new version of a rotation)`,
    );
  const days = (key: string, fallback: number, max: number): number => {
    const v = optPositiveInt(key) ?? fallback;
    if (v > max) throw new ConfigError(`${at(key)} is above ${max} days`);
    return v;
  };
  const monthlyBudgetUsd = optPositiveInt('monthlyBudgetUsd') ?? 100;

  const signingKeyArn = checked(
    'signingKeyArn',
    KMS_KEY_ARN_RE,
    'the ARN of a KMS key (arn:aws:kms:<region>:<account>:key/<key id>; not an alias)',
  );
  if (signingKeyArn !== undefined) {
    const [, keyRegion, keyAccount] = KMS_KEY_ARN_RE.exec(signingKeyArn)!;
    // a key of another account or region cannot sign for this stack's worker (KMS keys are regional)
    if (region !== undefined && keyRegion !== region)
      throw new ConfigError(
        `${at('signingKeyArn')} is a key in ${keyRegion}, but the stage deploys to ${region}: the signing key must be in the stack's region`,
      );
    if (account !== undefined && keyAccount !== account)
      throw new ConfigError(
        `${at('signingKeyArn')} is a key of account ${keyAccount}, but the stage deploys to account ${account}: the signing key must be in the stack's account`,
      );
  }

  // the approval policy: a committed one, checked as the Lambdas check it at load (decision 338)
  const approvalPolicy = optString('approvalPolicy') ?? DEFAULT_APPROVAL_POLICY;
  try {
    approvalPolicyNamed(approvalPolicy);
  } catch (e) {
    throw new ConfigError(`${at('approvalPolicy')}: ${(e as Error).message}`);
  }

  const identityProvider = checkIdentityProvider(s.identityProvider, at, ConfigError);

  const { settings: site, problems } = checkSiteSettings(s.site ?? {});
  if (problems.length > 0) throw new ConfigError(`${at('site')}: ${problems.join('; ')}`);

  return {
    stage,
    account,
    region,
    domainName,
    certificateArn,
    senderAddress,
    senderDomain,
    sesIdentity: sesIdentity as SesIdentityMode,
    sesSandbox,
    sesSandboxRecipients,
    allowedEmailDomains,
    auditRetentionDays,
    deletionProtection,
    tableDeletionProtection: deletionProtection && firstDeployDone,
    // A stack whose first create failed is deleted by `cdk deploy` before it creates it again; termination
    // protection would refuse that delete (decision 200): on from the deploy after the first success.
    terminationProtection: terminationProtection && (firstDeployDone || !deletionProtection),
    firstDeployDone,
    tokenTtlSeconds: optPositiveInt('tokenTtlSeconds'),
    originVerifySecretVersion,
    originVerifyPreviousSecretVersion,
    artefactNoncurrentDays: days('artefactNoncurrentDays', 365, 36500),
    stagingUploadDays: days('stagingUploadDays', 1, 365),
    monthlyBudgetUsd,
    signingKeyAdminRoleArn: checked('signingKeyAdminRoleArn', ROLE_ARN_RE, 'an IAM role ARN'),
    signingKeyArn,
    existingTrailArn: checked('existingTrailArn', TRAIL_ARN_RE, 'a CloudTrail trail ARN'),
    webAclArn: checked(
      'webAclArn',
      WEB_ACL_ARN_RE,
      'the ARN of a WAF web ACL of scope CLOUDFRONT (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)',
    ),
    alarmEmail: checked('alarmEmail', EMAIL_RE, 'an email address'),
    ...(identityProvider ? { identityProvider } : {}),
    requirePasskeys: optBool('requirePasskeys'),
    approvalPolicy,
    site,
  };
}
