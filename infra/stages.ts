import type { StageSettings } from './lib/portal-config';

/**
 * Every stage's settings, committed: `npm run deploy -- --stage <name>` (or `-c stage=<name>` for cdk)
 * selects one, and nothing else changes what is deployed (stage settings given as context flags are refused). The checks are in
 * infra/lib/portal-config.ts (checkStage): a missing required setting fails the synth naming it.
 * docs/infra.md ("Stages") describes each setting; the values below are examples to replace.
 *
 * `satisfies` keeps the editor's type check, yet the app checks again at synth (`cdk` runs tsx, which
 * does not type-check).
 */
export const STAGES = {
  /**
   * a developer's own stage, throw-away: `npx cdk destroy` removes its data (the audit bucket and the
   * sender identity stay). `npm run synth` builds this one. firstDeployDone stays unset (false): a failed
   * first create rolls back to nothing; set it to true after a successful deploy for the trail and the
   * access logs (docs/infra.md, "A failed first deploy").
   */
  dev: {
    senderAddress: 'firmware-portal@example.com',
    sesIdentity: 'create-domain',
    sesSandbox: true,
    sesSandboxRecipients: ['example.com'],
    allowedEmailDomains: [],
    deletionProtection: false,
    terminationProtection: false,
    monthlyBudgetUsd: 30,
  },
  /** acceptance before prod: its own account or region, same shape as prod, throw-away data */
  staging: {
    region: 'eu-central-1',
    senderAddress: 'firmware-portal-staging@example.com',
    sesIdentity: 'adopt-domain',
    sesSandbox: true,
    sesSandboxRecipients: ['example.com'],
    allowedEmailDomains: ['example.com'],
    auditRetentionDays: 30,
    deletionProtection: false,
    terminationProtection: false,
    alarmEmail: 'firmware-oncall-staging@example.com',
    monthlyBudgetUsd: 50,
    // a throw-away stage keeps replaced packages a short while only
    artefactNoncurrentDays: 30,
    // company sign-on (docs/decisions/315-company-sign-on.md): register https://<domain>/login/company as
    // the redirect URI at the provider and put the client secret in Secrets Manager; the stage names its ARN
    identityProvider: {
      name: 'Example Medical Devices',
      issuer: 'https://login.example.com/tenant-0000/v2.0',
      clientId: 'firmware-release-portal-staging',
      clientSecretArn:
        'arn:aws:secretsmanager:eu-central-1:123456789012:secret:frp-staging-oidc-client-AbCdEf',
      allowedEmailDomains: ['example.com'],
    },
  },
  /** production: custom domain, domain identity with DKIM, retained data, termination protection */
  prod: {
    account: '123456789012',
    region: 'eu-central-1',
    domainName: 'firmware.example.com',
    certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
    senderAddress: 'firmware-portal@example.com',
    sesIdentity: 'create-domain',
    sesSandbox: false,
    allowedEmailDomains: ['example.com'],
    auditRetentionDays: 2557,
    deletionProtection: true,
    // false until the first `npm run deploy -- --stage prod` has succeeded; then true, and deploy again:
    // the protections, the trail and the access logs start (decisions 200, 307)
    firstDeployDone: false,
    terminationProtection: true,
    // operators hear every alarm; the key admin administers the signing key and can never sign with it
    alarmEmail: 'firmware-oncall@example.com',
    signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:role/firmware-signing-key-admin',
    // recommended once prod has a key in the field: keep that key across a replaced stack, and switch
    // keys when rotating (docs/infra.md, "Using an existing signing key", decision 263):
    // signingKeyArn: 'arn:aws:kms:eu-central-1:123456789012:key/<key id>',
    // the account's cost alarm (AWS Budgets): 80 % forecast, 100 % actual (docs/infra.md, "Cost")
    monthlyBudgetUsd: 200,
    // replaced or deleted packages (noncurrent versions) stay a year; the audit copy keeps every event
    artefactNoncurrentDays: 365,
    // whoever approves, signs or delivers firmware, and the admins, sign with a passkey (decision 322)
    requirePasskeys: true,
    site: {
      companyName: 'Example Medical Devices',
      companyAddress: 'Headquarters: 100 Example Avenue, Springfield, 01101, USA',
    },
  },
} satisfies Record<string, StageSettings>;
