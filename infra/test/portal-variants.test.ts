import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes';
import { KEY_ALERT_EVENTS } from '../lib/constructs/trail';
import { deployedSiteSettings, type Synthesized, synthPortal } from './support/synth';

type Json = Record<string, unknown>;

const ORIGIN_VERSION = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
const KEY_ADMIN = 'arn:aws:iam::123456789012:role/firmware-key-admin';
const TRAIL = 'arn:aws:cloudtrail:eu-central-1:123456789012:trail/org-trail';
const WEB_ACL =
  'arn:aws:wafv2:us-east-1:123456789012:global/webacl/portal-edge/11111111-2222-3333-4444-555555555555';

/** A throw-away test stage with a custom domain and an SES identity that exists already. */
const QA_STAGE = {
  deletionProtection: false,
  terminationProtection: false,
  auditRetentionDays: 30,
  domainName: 'portal.example.com',
  certificateArn: CERT,
  senderAddress: 'portal@mail.example.com',
  sesIdentity: 'adopt-address',
  sesSandbox: false,
  allowedEmailDomains: ['example.com', ' Example.org'],
  tokenTtlSeconds: 3600,
  originVerifySecretVersion: ORIGIN_VERSION,
  site: {
    companyName: 'Acme Medical Devices',
    companyAddress: 'Acme HQ, 1 Main Street, Basel, Switzerland',
    privacyUrl: 'https://acme.example/privacy',
    accessibilityUrl: 'https://acme.example/accessibility',
    termsUrl: 'https://acme.example/terms',
  },
  // production operations: the key admin, an organisation trail, a web ACL made in
  // us-east-1, the on-call address
  signingKeyAdminRoleArn: KEY_ADMIN,
  existingTrailArn: TRAIL,
  webAclArn: WEB_ACL,
  alarmEmail: 'oncall@example.com',
};

let s: Synthesized;
beforeAll(() => {
  s = synthPortal({ stage: 'qa' }, { qa: QA_STAGE });
});

const props = (construct: Parameters<Synthesized['logicalId']>[0]) =>
  s.json.Resources[s.logicalId(construct)]!.Properties as Json;

describe('a test stage with a custom domain', () => {
  it('names the stack and the browser buckets after the stage', () => {
    expect(s.stack.stackName).toBe('FirmwareReleasePortal-qa');
    expect(JSON.stringify(props(s.stack.data.buckets.resources).BucketName)).toContain('frp-qa-resources-');
  });

  it('turns deletion protection off and lets CloudFormation delete tables and buckets', () => {
    for (const table of Object.values(s.stack.data.tables)) {
      const r = s.json.Resources[s.logicalId(table)]!;
      expect((r.Properties as Json).DeletionProtectionEnabled).toBe(false);
      expect(r.DeletionPolicy).toBe('Delete');
    }
    expect(s.json.Resources[s.logicalId(s.stack.data.buckets.artefacts)]!.DeletionPolicy).toBe('Delete');
  });

  it('still retains the Object Lock audit bucket (except on a failed first create), with the retention from context', () => {
    const audit = s.json.Resources[s.logicalId(s.stack.data.buckets.audit)]!;
    expect(audit.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect((audit.Properties as Json).ObjectLockConfiguration).toEqual({
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 30 } },
    });
  });

  it('serves the domain with its certificate and TLS 1.2 or newer only', () => {
    const dc = props(s.stack.web.distribution).DistributionConfig as Json;
    expect(dc.Aliases).toEqual(['portal.example.com']);
    expect(dc.ViewerCertificate).toEqual({
      AcmCertificateArn: CERT,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(s.acknowledgements.map((a) => a.id)).not.toContain('AwsSolutions-CFR4');
  });

  it('points mail links at the domain and upload CORS at the domain and the CloudFront domain', () => {
    const cloudFront = {
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [s.logicalId(s.stack.web.distribution), 'DomainName'] }]],
    };
    for (const b of [s.stack.data.buckets.resources, s.stack.data.buckets.artefacts]) {
      const cors = (props(b).CorsConfiguration as { CorsRules: Json[] }).CorsRules;
      expect(cors[0]!.AllowedOrigins).toEqual([cloudFront, 'https://portal.example.com']);
    }
    for (const route of ROUTES.filter((r) => r.uses.mail || r.uses.tables.includes('outbox'))) {
      const vars = (props(s.stack.api.functions.get(route.id)!).Environment as { Variables: Json }).Variables;
      expect(vars.APP_URL, route.id).toBe('https://portal.example.com');
    }
  });

  it('hands the identity settings to the functions that build the identity service', () => {
    for (const route of ROUTES) {
      const vars = (props(s.stack.api.functions.get(route.id)!).Environment as { Variables: Json }).Variables;
      const identity = route.access !== 'public' || route.uses.tables.includes('users');
      expect(vars.ALLOWED_EMAIL_DOMAINS, route.id).toBe(identity ? 'example.com,example.org' : undefined);
      expect(vars.TOKEN_TTL_SECONDS, route.id).toBe(identity ? '3600' : undefined);
    }
  });

  it('hands CloudFront the origin-verify secret version named after a rotation (docs/operations.md)', () => {
    const dc = props(s.stack.web.distribution).DistributionConfig as { Origins: Json[] };
    const headers = dc.Origins.flatMap(
      (o) => (o.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[] | undefined) ?? [],
    );
    const value = JSON.stringify(headers.find((h) => h.HeaderName === 'X-Frp-Origin-Verify')!.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(`::${ORIGIN_VERSION}}}`);
    expect(value).toContain(s.logicalId(s.stack.signing.originVerifySecret));
  });

  it('writes the footer settings from context into config.json next to the SPA', () => {
    expect(deployedSiteSettings(s)).toEqual({
      companyName: 'Acme Medical Devices',
      companyAddress: 'Acme HQ, 1 Main Street, Basel, Switzerland',
      privacyUrl: 'https://acme.example/privacy',
      accessibilityUrl: 'https://acme.example/accessibility',
      termsUrl: 'https://acme.example/terms',
      approvalPolicy: 'spec',
    });
  });

  it('deletes the key, the secret, the log groups and the site bucket with a throw-away stack', () => {
    for (const type of ['AWS::KMS::Key', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup'])
      for (const [id, r] of Object.entries(s.json.Resources).filter(([, x]) => x.Type === type))
        expect(r.DeletionPolicy, id).toBe('Delete');
    expect(s.json.Resources[s.logicalId(s.stack.web.bucket)]!.DeletionPolicy).toBe('Delete');
  });

  it('adopts the existing SES identity: creates none, grants sending as the address and its domain', () => {
    expect(Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::SES::EmailIdentity')).toEqual([]);
    expect(Object.keys(s.json.Outputs ?? {}).filter((o) => o.startsWith('DkimRecord'))).toEqual([]);
    const mailer = props(s.stack.workers.functions.get('mailOutbox')!);
    const roleId = (mailer.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const ses = Object.values(s.json.Resources)
      .filter(
        (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify((r.Properties as Json).Roles).includes(roleId),
      )
      .flatMap((r) => ((r.Properties as Json).PolicyDocument as { Statement: Json[] }).Statement)
      .filter((st) => JSON.stringify(st.Action).includes('ses:SendEmail'));
    const text = JSON.stringify(ses);
    expect(text).toContain(':identity/portal@mail.example.com"');
    expect(text).toContain(':identity/mail.example.com"');
    expect(text.match(/:identity\//g)).toHaveLength(2); // not in the sandbox: no recipient identities
  });

  it('has no termination protection (a throw-away stage)', () => {
    expect(s.stack.terminationProtection).toBe(false);
  });

  it('passes cdk-nag AwsSolutions with zero unacknowledged findings', () => {
    expect(s.nagViolations.map((v) => v.ruleName)).toEqual([]);
    expect(s.synthError).toBeUndefined();
  });

  it('uses the configured web ACL and trail instead of making them, and mails alarms to on-call', () => {
    const ofType = (type: string) => Object.values(s.json.Resources).filter((r) => r.Type === type);
    // no edge stack: the stage names its CloudFront ACL; the API stage's own (regional) ACL remains
    expect(s.edge).toBeUndefined();
    expect(ofType('AWS::WAFv2::WebACL').map((r) => (r.Properties as Json).Scope)).toEqual(['REGIONAL']);
    expect(ofType('AWS::CloudTrail::Trail')).toHaveLength(0);
    expect((props(s.stack.web.distribution).DistributionConfig as Json).WebACLId).toBe(WEB_ACL);
    expect(ofType('AWS::SNS::Subscription').map((r) => r.Properties)).toEqual([
      expect.objectContaining({ Protocol: 'email', Endpoint: 'oncall@example.com' }),
    ]);
  });

  it('still tells on-call of changes to either signing key and refused calls on it, from the existing trail', () => {
    const rules = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::Events::Rule');
    // one rule per key (decision 350): the mail's rule name says which key
    expect(rules).toHaveLength(2);
    const watched = rules.map((r) => {
      const rule = r.Properties as Json;
      // refused Sign calls are read-only management events: only this state delivers them
      expect(rule.State).toBe('ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS');
      const pattern = rule.EventPattern as Json;
      expect(pattern.source).toEqual(['aws.kms']);
      expect(pattern['detail-type']).toEqual(['AWS API Call via CloudTrail']);
      const detail = pattern.detail as Json;
      expect(detail.$or).toEqual([
        { eventName: [...KEY_ALERT_EVENTS] },
        { errorCode: [{ prefix: 'AccessDenied' }] },
      ]);
      expect(rule.Targets).toEqual([
        expect.objectContaining({ Arn: { Ref: s.logicalId(s.stack.monitoring.topic) } }),
      ]);
      return detail.resources;
    });
    const arnOf = (key: IConstruct) => ({ ARN: [{ 'Fn::GetAtt': [s.logicalId(key), 'Arn'] }] });
    expect(watched).toEqual(
      expect.arrayContaining([arnOf(s.stack.signing.packageKey), arnOf(s.stack.signing.devKey)]),
    );
    // the topic lets EventBridge publish
    const policies = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::SNS::TopicPolicy');
    expect(JSON.stringify(policies)).toContain('events.amazonaws.com');
  });

  it('lets the key admin role administer the signing key and schedule its deletion (30 days), never sign', () => {
    const policy = props(s.stack.signing.packageKey).KeyPolicy as {
      Statement: { Effect: string; Action: string | string[]; Principal?: unknown; Condition?: unknown }[];
    };
    const actions = (st: { Action: string | string[] }) =>
      Array.isArray(st.Action) ? st.Action : [st.Action];
    // named in a condition on the account principal: the role may not exist yet (decision 306)
    const admin = policy.Statement.filter(
      (st) => st.Effect === 'Allow' && JSON.stringify(st.Condition ?? '').includes(KEY_ADMIN),
    );
    for (const st of policy.Statement) expect(JSON.stringify(st.Principal ?? '')).not.toContain(KEY_ADMIN);
    expect(admin.flatMap(actions)).toEqual(
      expect.arrayContaining(['kms:PutKeyPolicy', 'kms:ScheduleKeyDeletion', 'kms:CancelKeyDeletion']),
    );
    expect(admin.flatMap(actions)).not.toContain('kms:Sign');
    const denyDelete = policy.Statement.find(
      (st) => st.Effect === 'Deny' && actions(st).includes('kms:ScheduleKeyDeletion'),
    );
    expect(JSON.stringify(denyDelete?.Condition)).toContain(KEY_ADMIN);
  });
});
