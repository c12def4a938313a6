import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { withConnectSources } from '../lib/constructs/web';
import { checkStage, PLACEHOLDER_WEB_DIR, readConfig } from '../lib/portal-config';
import { STAGES } from '../stages';

/** A complete stage: every required setting present. */
const VALID = {
  senderAddress: 'portal@example.com',
  sesIdentity: 'create-domain',
  sesSandbox: false,
  allowedEmailDomains: [],
  deletionProtection: true,
  firstDeployDone: true,
  terminationProtection: false,
};

/** readConfig as `cdk` runs it: `-c` context, the given stages; a built SPA unless the test says otherwise. */
const config = (
  context: Record<string, unknown>,
  stages: Record<string, unknown> = { dev: VALID },
  web: Record<string, unknown> = { allowPlaceholderWeb: 'true' },
) => readConfig(new App({ context: { ...web, ...context } }).node, stages);

describe('stage settings (infra/stages.ts)', () => {
  it('holds dev, staging and prod, each complete and valid; prod is protected against termination and deletion', () => {
    expect(Object.keys(STAGES)).toEqual(expect.arrayContaining(['dev', 'staging', 'prod']));
    for (const [name, settings] of Object.entries(STAGES))
      expect(() => checkStage(name, settings), name).not.toThrow();
    // termination protection comes with the deploy after the first success (firstDeployDone)
    const prod = checkStage('prod', { ...STAGES.prod, firstDeployDone: true });
    expect(prod).toMatchObject({ terminationProtection: true, deletionProtection: true });
    expect(STAGES.prod.terminationProtection).toBe(true);
    expect(prod.domainName).toBeDefined();
    expect(prod.sesIdentity).toBe('create-domain');
  });

  it('selects one stage with -c stage and takes everything else from the file', () => {
    const c = config({ stage: 'prod' }, STAGES);
    expect(c).toMatchObject({
      stage: 'prod',
      domainName: STAGES.prod.domainName,
      senderAddress: STAGES.prod.senderAddress,
      senderDomain: 'example.com',
      allowedEmailDomains: STAGES.prod.allowedEmailDomains,
      account: STAGES.prod.account,
      region: STAGES.prod.region,
    });
    expect(config({}, STAGES).stage).toBe('dev');
    expect(() => config({ stage: 'qa' }, STAGES)).toThrow(
      /stage 'qa' is not in infra\/stages\.ts \(stages there: dev, staging, prod/,
    );
  });

  it('fails the synth naming a missing required setting', () => {
    for (const key of [
      'senderAddress',
      'sesIdentity',
      'sesSandbox',
      'allowedEmailDomains',
      'deletionProtection',
      'firstDeployDone',
      'terminationProtection',
    ]) {
      const { [key as keyof typeof VALID]: _gone, ...rest } = VALID;
      expect(() => config({}, { dev: rest }), key).toThrow(
        new RegExp(`infra/stages\\.ts, stage dev: ${key} is required`),
      );
    }
    // a throw-away stage (no deletion protection) needs no firstDeployDone
    const { firstDeployDone: _f, ...throwAway } = { ...VALID, deletionProtection: false };
    expect(config({}, { dev: throwAway }).tableDeletionProtection).toBe(false);
  });

  it('refuses the settings that used to be -c flags, so an old command line cannot half-apply', () => {
    for (const key of [
      'domainName',
      'senderAddress',
      'allowedEmailDomains',
      'deletionProtection',
      'termsUrl',
    ])
      expect(() => config({ [key]: 'x' }), key).toThrow(
        new RegExp(`context ${key} is no longer read: set ${key} for the stage in infra/stages.ts`),
      );
  });

  it('gives prod termination protection, and refuses a prod without it', () => {
    expect(() => config({ stage: 'prod' }, { prod: { ...VALID, terminationProtection: false } })).toThrow(
      /stage prod: terminationProtection and deletionProtection must be true for prod/,
    );
  });

  it('turns DynamoDB deletion protection and termination protection on only once the first deploy is done (decision 200)', () => {
    const first = config({}, { dev: { ...VALID, terminationProtection: true, firstDeployDone: false } });
    expect(first).toMatchObject({ tableDeletionProtection: false, terminationProtection: false });
    const later = config({}, { dev: { ...VALID, terminationProtection: true } });
    expect(later).toMatchObject({ tableDeletionProtection: true, terminationProtection: true });
  });

  it('rejects settings that would fail only at deploy time, naming them', () => {
    const bad = (patch: Record<string, unknown>, re: RegExp) =>
      expect(() => config({}, { dev: { ...VALID, ...patch } }), JSON.stringify(patch)).toThrow(re);
    bad({ domainName: 'portal.example.com' }, /domainName and certificateArn go together/);
    bad(
      {
        domainName: 'portal.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x',
      },
      /certificateArn must be an ACM certificate in us-east-1/,
    );
    bad({ senderAddress: 'portal' }, /senderAddress is not an email address/);
    bad(
      { sesIdentity: 'create' },
      /sesIdentity must be one of create-domain, create-address, adopt-domain, adopt-address/,
    );
    bad({ sesSandbox: true }, /sesSandboxRecipients is required in the SES sandbox/);
    bad({ sesSandboxRecipients: ['example.com'] }, /only for the SES sandbox/);
    bad({ allowedEmailDomains: ['example'] }, /allowedEmailDomains: 'example' is not a domain/);
    bad({ allowedEmailDomains: 'example.com' }, /allowedEmailDomains must be a list/);
    bad({ auditRetentionDays: 0 }, /auditRetentionDays must be a positive integer/);
    bad({ deletionProtection: 'true' }, /deletionProtection must be true or false/);
    // a typo must not leave signatures without their passkey (decision 322)
    bad({ requirePasskeys: 'yes' }, /requirePasskeys must be true or false/);
    bad({ account: '1234' }, /account must be a 12-digit/);
    bad({ region: 'europe' }, /region is not an AWS region/);
    bad({ senderAdress: 'typo@example.com' }, /senderAdress is not a setting/);
    bad({ site: { privacyUrl: 'http://example.com/privacy' } }, /privacyUrl must be an https/);
    bad(
      { originVerifySecretVersion: 'AWSCURRENT' },
      /originVerifySecretVersion must be a Secrets Manager version id/,
    );
    expect(() => config({ stage: 'Prod_1' }, { Prod_1: VALID })).toThrow(/stage/);
  });

  it('requires passkeys for signatures only when a stage says so (decision 322)', () => {
    expect(config({}, { dev: VALID }).requirePasskeys).toBe(false);
    expect(config({}, { dev: { ...VALID, requirePasskeys: true } }).requirePasskeys).toBe(true);
  });

  it('selects a committed approval policy by name, the specification by default (decision 338)', () => {
    expect(config({}, { dev: VALID }).approvalPolicy).toBe('spec');
    expect(config({}, { dev: { ...VALID, approvalPolicy: 'technical-leader-last' } }).approvalPolicy).toBe(
      'technical-leader-last',
    );
    expect(() => config({}, { dev: { ...VALID, approvalPolicy: 'leader-first' } })).toThrow(
      /stage dev: approvalPolicy: Unknown approval policy 'leader-first' .*choose one of spec, technical-leader-last/,
    );
  });
});

describe('the built SPA', () => {
  it('fails the synth when web/dist was not built, with the command to run', () => {
    expect(() => config({ webDist: 'no/such/dir' }, undefined, {})).toThrow(
      /no\/such\/dir\/index\.html not found: the SPA is not built\. Run `npm run build:web`/,
    );
    expect(() => config({ webDist: 'no/such/dir', allowPlaceholderWeb: 'false' }, undefined, {})).toThrow(
      /npm run build:web/,
    );
  });

  it('deploys the placeholder page only when a test synth asks for it explicitly', () => {
    const c = config({ webDist: 'no/such/dir' }, undefined, { allowPlaceholderWeb: 'true' });
    expect(c.webIsPlaceholder).toBe(true);
    expect(c.webDir).toBe(PLACEHOLDER_WEB_DIR);
  });
});

describe('content security policy', () => {
  it('adds sources to connect-src and keeps the other directives', () => {
    expect(
      withConnectSources("default-src 'self'; connect-src 'self'; frame-ancestors 'none'", ['https://b']),
    ).toBe("default-src 'self'; connect-src 'self' https://b; frame-ancestors 'none'");
    expect(withConnectSources("default-src 'self'", ['https://b'])).toBe(
      "default-src 'self'; connect-src 'self' https://b",
    );
  });
});

describe('the cdk-nag check', () => {
  it('fails the synth on a finding nobody acknowledged', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    new s3.Bucket(new Stack(app, 'Probe'), 'Open');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });
});

describe('production operations settings', () => {
  /** the dev stage with some settings added, as written in infra/stages.ts */
  const stageWith = (patch: Record<string, unknown>) => config({}, { dev: { ...VALID, ...patch } });

  it('are optional, and read when given', () => {
    const none = config({});
    expect([none.signingKeyAdminRoleArn, none.existingTrailArn, none.webAclArn, none.alarmEmail]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const c = stageWith({
      signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:role/ops/key-admin',
      existingTrailArn: 'arn:aws:cloudtrail:eu-central-1:123456789012:trail/org-trail',
      webAclArn:
        'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/11111111-2222-3333-4444-555555555555',
      alarmEmail: 'oncall@example.com',
    });
    expect(c.signingKeyAdminRoleArn).toBe('arn:aws:iam::123456789012:role/ops/key-admin');
    expect(c.alarmEmail).toBe('oncall@example.com');
  });

  it('refuse values that would fail only at deploy time, and refuse them as -c flags', () => {
    expect(() => config({ alarmEmail: 'oncall@example.com' })).toThrow(
      /set alarmEmail for the stage in infra\/stages\.ts/,
    );
    expect(() => stageWith({ signingKeyAdminRoleArn: 'key-admin' })).toThrow(/must be/);
    expect(() => stageWith({ signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:user/alice' })).toThrow(
      /must be an IAM role ARN/,
    );
    expect(() => stageWith({ existingTrailArn: 'arn:aws:s3:::trail-bucket' })).toThrow(/must be/);
    // a regional web ACL cannot be attached to CloudFront
    expect(() =>
      stageWith({
        webAclArn:
          'arn:aws:wafv2:eu-central-1:123456789012:regional/webacl/edge/11111111-2222-3333-4444-555555555555',
      }),
    ).toThrow(/must be/);
    expect(() => stageWith({ alarmEmail: 'on call' })).toThrow(/must be/);
  });
});

describe('company identity provider (identityProvider, decision 315)', () => {
  const IDP = {
    name: 'Example Medical Devices',
    issuer: 'https://login.example.com/tenant/v2.0',
    clientId: 'portal',
    clientSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:frp-oidc-client-AbCdEf',
    allowedEmailDomains: ['Example.com'],
  };

  it('is optional, and checked when given: every part, https only, the secret by its complete ARN', () => {
    expect(checkStage('dev', VALID).identityProvider).toBeUndefined();
    expect(checkStage('dev', { ...VALID, identityProvider: IDP }).identityProvider).toEqual({
      ...IDP,
      allowedEmailDomains: ['example.com'],
      only: false,
      breakGlassAdmins: [],
    });
    for (const key of ['name', 'issuer', 'clientId', 'clientSecretArn', 'allowedEmailDomains']) {
      const { [key as keyof typeof IDP]: _gone, ...rest } = IDP;
      expect(() => checkStage('dev', { ...VALID, identityProvider: rest }), key).toThrow(
        new RegExp(`infra/stages\\.ts, stage dev: identityProvider\\.${key} is required .* and missing`),
      );
    }
    const bad = (change: Record<string, unknown>) => () =>
      checkStage('dev', { ...VALID, identityProvider: { ...IDP, ...change } });
    expect(bad({ issuer: 'http://login.example.com' })).toThrow(
      /identityProvider\.issuer must be an https URL/,
    );
    expect(bad({ clientSecretArn: 'my-secret' })).toThrow(
      /identityProvider\.clientSecretArn must be the complete ARN/,
    );
    expect(bad({ allowedEmailDomains: [] })).toThrow(/at least one domain/);
    expect(bad({ clientSecret: 'x' })).toThrow(/identityProvider\.clientSecret is not a setting/);
  });

  it('makes company sign-on the only way in only with break-glass administrators named', () => {
    expect(() => checkStage('dev', { ...VALID, identityProvider: { ...IDP, only: true } })).toThrow(
      /identityProvider\.breakGlassAdmins is required with only: true/,
    );
    const c = checkStage('dev', {
      ...VALID,
      identityProvider: { ...IDP, only: true, breakGlassAdmins: ['Admin@example.com'] },
    }).identityProvider;
    expect(c).toMatchObject({ only: true, breakGlassAdmins: ['admin@example.com'] });
  });
});
