/** portal-config.ts's ConfigError, passed in (this file is imported by it). */
type ConfigErrorBase = new (message: string) => Error;

/**
 * The stage's company identity provider (company sign-on, docs/decisions/315-company-sign-on.md), as
 * written in infra/stages.ts under `identityProvider`, and its check at synth: a missing part fails the
 * synth naming it. The client secret stays in Secrets Manager: the stage names its ARN, the functions that
 * run the sign-in read it at run time (never in the template or the environment).
 */
export interface IdentityProviderSettings {
  /** the company's name on the sign-in button: "Sign in with <name>" */
  name: string;
  /** the provider's issuer identifier (https; discovery at <issuer>/.well-known/openid-configuration) */
  issuer: string;
  /** the portal's client id at the provider (its redirect URI is https://<domain>/login/company) */
  clientId: string;
  /** the complete ARN of the Secrets Manager secret holding the client secret (as plain text) */
  clientSecretArn: string;
  /** the email domains that may sign in through the provider (required, at least one) */
  allowedEmailDomains: string[];
  /** company sign-on is the only way in, but for the break-glass administrators' passwords (default false) */
  only?: boolean;
  /** with `only`: the administrators' addresses that still sign in with a password (at least one) */
  breakGlassAdmins?: string[];
}

export type IdentityProviderConfig = Required<Omit<IdentityProviderSettings, 'breakGlassAdmins'>> & {
  breakGlassAdmins: string[];
};

const KEYS = [
  'name',
  'issuer',
  'clientId',
  'clientSecretArn',
  'allowedEmailDomains',
  'only',
  'breakGlassAdmins',
];
const SECRET_ARN_RE =
  /^arn:aws[a-z-]*:secretsmanager:[a-z]{2}(-gov)?-[a-z]+-\d:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/;
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Checks `identityProvider` of one stage; `at(key)` names the place in infra/stages.ts. */
export function checkIdentityProvider(
  raw: unknown,
  at: (key: string) => string,
  ConfigError: ConfigErrorBase,
): IdentityProviderConfig | undefined {
  if (raw === undefined) return undefined;
  const where = (k: string) => at(`identityProvider.${k}`);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(
      `${at('identityProvider')} must be an object (name, issuer, clientId, clientSecretArn, allowedEmailDomains)`,
    );
  const s = raw as Record<string, unknown>;
  for (const k of Object.keys(s))
    if (!KEYS.includes(k)) throw new ConfigError(`${where(k)} is not a setting (a typo?)`);
  const str = (k: string, what: string): string => {
    const v = s[k];
    if (v === undefined) throw new ConfigError(`${where(k)} is required (${what}) and missing`);
    if (typeof v !== 'string' || v.trim() === '')
      throw new ConfigError(`${where(k)} must be a non-empty string`);
    return v.trim();
  };
  const name = str('name', 'the company name on the sign-in button');
  if (name.length > 60) throw new ConfigError(`${where('name')} is longer than 60 characters`);
  const issuer = str('issuer', "the provider's issuer URL");
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`${where('issuer')} is not a URL: '${issuer}'`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash)
    throw new ConfigError(
      `${where('issuer')} must be an https URL without query or fragment, got '${issuer}'`,
    );
  const clientId = str('clientId', "the portal's client id at the provider");
  const clientSecretArn = str(
    'clientSecretArn',
    'the complete ARN of the Secrets Manager secret holding the client secret',
  );
  if (!SECRET_ARN_RE.test(clientSecretArn))
    throw new ConfigError(
      `${where('clientSecretArn')} must be the complete ARN of a Secrets Manager secret (arn:aws:secretsmanager:<region>:<account>:secret:<name>-<6 characters>), got '${clientSecretArn}'`,
    );
  const list = (k: string, re: RegExp, what: string): string[] => {
    const v = s[k];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new ConfigError(`${where(k)} must be a list`);
    return v.map((x) => {
      const item = String(x).trim().toLowerCase();
      if (!re.test(item)) throw new ConfigError(`${where(k)}: '${item}' is not ${what}`);
      return item;
    });
  };
  if (s.allowedEmailDomains === undefined)
    throw new ConfigError(
      `${where('allowedEmailDomains')} is required (the email domains that may sign in) and missing`,
    );
  const allowedEmailDomains = list('allowedEmailDomains', DOMAIN_RE, 'a domain');
  if (allowedEmailDomains.length === 0)
    throw new ConfigError(`${where('allowedEmailDomains')} must name at least one domain`);
  if (s.only !== undefined && typeof s.only !== 'boolean')
    throw new ConfigError(`${where('only')} must be true or false`);
  const only = s.only === true;
  const breakGlassAdmins = list('breakGlassAdmins', EMAIL_RE, 'an email address');
  if (only && breakGlassAdmins.length === 0)
    throw new ConfigError(
      `${where('breakGlassAdmins')} is required with only: true (the administrators who still sign in with a password when the provider is down) and missing`,
    );
  return { name, issuer, clientId, clientSecretArn, allowedEmailDomains, only, breakGlassAdmins };
}

/** The environment of the functions (lambdas/composition-company.ts reads it); no secret in it. */
export function identityProviderEnv(c: IdentityProviderConfig): Record<string, string> {
  return {
    COMPANY_IDP_ISSUER: c.issuer,
    COMPANY_IDP_CLIENT_ID: c.clientId,
    COMPANY_IDP_CLIENT_SECRET_ARN: c.clientSecretArn,
    COMPANY_IDP_NAME: c.name,
    COMPANY_IDP_EMAIL_DOMAINS: c.allowedEmailDomains.join(','),
    COMPANY_SIGN_ON_ONLY: String(c.only),
    BREAK_GLASS_ADMINS: c.breakGlassAdmins.join(','),
  };
}
