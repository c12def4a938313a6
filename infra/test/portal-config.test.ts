import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { withConnectSources } from '../lib/constructs/web';
import { ConfigError, PLACEHOLDER_WEB_DIR, readConfig } from '../lib/portal-config';

const config = (context: Record<string, unknown>) => readConfig(new App({ context }).node);

describe('context', () => {
  it('defaults to stage dev with deletion protection on and seven years of audit retention', () => {
    const c = config({});
    expect(c).toMatchObject({
      stage: 'dev',
      deletionProtection: true,
      auditRetentionDays: 2557,
      allowedEmailDomains: [],
      bundleCache: true,
    });
    expect(c.domainName).toBeUndefined();
  });

  it('reads booleans, numbers and lists given as -c strings', () => {
    const c = config({
      deletionProtection: 'false',
      auditRetentionDays: '90',
      allowedEmailDomains: ' Example.com ,example.org,',
      tokenTtlSeconds: '1800',
    });
    expect(c).toMatchObject({
      deletionProtection: false,
      auditRetentionDays: 90,
      allowedEmailDomains: ['example.com', 'example.org'],
      tokenTtlSeconds: 1800,
    });
  });

  it('rejects settings that would fail only at deploy time', () => {
    expect(() => config({ domainName: 'portal.example.com' })).toThrow(ConfigError);
    expect(() =>
      config({
        domainName: 'portal.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x',
      }),
    ).toThrow(/us-east-1/);
    expect(() => config({ stage: 'Prod_1' })).toThrow(/stage/);
    expect(() => config({ deletionProtection: 'no' })).toThrow(/true or false/);
    expect(() => config({ auditRetentionDays: '0' })).toThrow(/positive integer/);
    expect(() => config({ senderAddress: 'portal' })).toThrow(/email/);
    expect(() => config({ allowedEmailDomains: 'example' })).toThrow(/domain/);
    expect(() => config({ privacyUrl: 'http://example.com/privacy' })).toThrow(/privacyUrl must be an https/);
    expect(() => config({ termsUrl: 'terms' })).toThrow(/termsUrl/);
    expect(() => config({ companyAddress: 'x'.repeat(301) })).toThrow(/companyAddress/);
  });

  it('falls back to the placeholder page when the web app was not built', () => {
    const c = config({ webDist: 'no/such/dir' });
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

describe('production operations settings (issue 24)', () => {
  it('are optional, and read when given', () => {
    const none = config({});
    expect([none.signingKeyAdminRoleArn, none.existingTrailArn, none.webAclArn, none.alarmEmail]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const c = config({
      signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:role/ops/key-admin',
      existingTrailArn: 'arn:aws:cloudtrail:eu-central-1:123456789012:trail/org-trail',
      webAclArn:
        'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/11111111-2222-3333-4444-555555555555',
      alarmEmail: 'oncall@example.com',
    });
    expect(c.signingKeyAdminRoleArn).toBe('arn:aws:iam::123456789012:role/ops/key-admin');
    expect(c.alarmEmail).toBe('oncall@example.com');
  });

  it('refuse values that would fail only at deploy time', () => {
    expect(() => config({ signingKeyAdminRoleArn: 'key-admin' })).toThrow(ConfigError);
    expect(() => config({ signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:user/alice' })).toThrow(
      ConfigError,
    );
    expect(() => config({ existingTrailArn: 'arn:aws:s3:::trail-bucket' })).toThrow(ConfigError);
    // a regional web ACL cannot be attached to CloudFront
    expect(() =>
      config({
        webAclArn:
          'arn:aws:wafv2:eu-central-1:123456789012:regional/webacl/edge/11111111-2222-3333-4444-555555555555',
      }),
    ).toThrow(ConfigError);
    expect(() => config({ alarmEmail: 'on call' })).toThrow(ConfigError);
  });
});
