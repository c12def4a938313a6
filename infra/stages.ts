import type { StageSettings } from './lib/portal-config';

/**
 * Every stage's settings, committed: `npx cdk deploy -c stage=<name>` selects one, and nothing else
 * changes what is deployed (the old `-c domainName=…` style flags are refused). The checks are in
 * infra/lib/portal-config.ts (checkStage): a missing required setting fails the synth naming it.
 * docs/infra.md ("Stages") describes each setting; the values below are examples to replace.
 *
 * `satisfies` keeps the editor's type check, yet the app checks again at synth (`cdk` runs tsx, which
 * does not type-check).
 */
export const STAGES = {
  /** a developer's own stage; `npm run synth` and the infra tests build this one */
  dev: {
    senderAddress: 'firmware-portal@example.com',
    sesIdentity: 'create-domain',
    sesSandbox: true,
    sesSandboxRecipients: ['example.com'],
    allowedEmailDomains: [],
    deletionProtection: true,
    firstDeployDone: true,
    terminationProtection: false,
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
    // CloudFront's web ACLs live in us-east-1: outside it the stage names one made there (docs/infra.md, WAF)
    webAclArn:
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/frp-staging-edge/22222222-3333-4444-5555-666666666666',
    alarmEmail: 'firmware-oncall-staging@example.com',
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
    // false until the first `cdk deploy -c stage=prod` has succeeded; then true, and deploy again
    firstDeployDone: false,
    terminationProtection: true,
    // operators hear every alarm; the key admin administers the signing key and can never sign with it
    alarmEmail: 'firmware-oncall@example.com',
    signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:role/firmware-signing-key-admin',
    // recommended once prod has a key in the field: keep that key across a replaced stack, and switch
    // keys when rotating (docs/infra.md, "Using an existing signing key", decision 263):
    // signingKeyArn: 'arn:aws:kms:eu-central-1:123456789012:key/<key id>',
    webAclArn:
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/frp-prod-edge/11111111-2222-3333-4444-555555555555',
    // whoever approves, signs or delivers firmware, and the admins, sign with a passkey (decision 322)
    requirePasskeys: true,
    site: {
      companyName: 'Example Medical Devices',
      companyAddress: 'Headquarters: 100 Example Avenue, Springfield, 01101, USA',
    },
  },
} satisfies Record<string, StageSettings>;
