import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStage } from '../../infra/lib/portal-config';
import { STAGES } from '../../infra/stages';
import type { RecordedAnswers } from './answers';
import { checkPrerequisites, covers, type Finding } from './prerequisites';
import { formatFindings } from './run-check';

/**
 * The pre-deploy check (decision 309) on recorded AWS answers: JSON in the SDK's response shapes
 * (scripts/deploy/fixtures), one for a new account that is not ready and one for an account that is.
 */
const fixture = (name: string): RecordedAnswers =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', `${name}.json`), 'utf8')) as RecordedAnswers;
const NEW = () => fixture('new-account-eu-central-1');
const READY = () => fixture('ready-account-eu-central-1');

const prod = (patch: Record<string, unknown> = {}) => checkStage('prod', { ...STAGES.prod, ...patch });
const check = (answers: RecordedAnswers, patch: Record<string, unknown> = {}, name = 'prod') =>
  checkPrerequisites(name, prod(patch), answers);
const blockers = (f: Finding[]) => f.filter((x) => x.level === 'blocker');
const about = (f: Finding[], check: string) => f.filter((x) => x.check === check);

describe('the pre-deploy check of prod in eu-central-1, on a new account', () => {
  const findings = check(NEW());

  it('names a missing key-admin role, a missing certificate, an existing SES identity and a sandboxed account', () => {
    const named = blockers(findings).map((b) => b.check);
    expect(named).toEqual(
      expect.arrayContaining(['key-admin-role', 'certificate', 'ses-identity', 'ses-sandbox']),
    );
    expect(about(findings, 'key-admin-role')[0]!.message).toContain(
      'arn:aws:iam::123456789012:role/firmware-signing-key-admin does not exist',
    );
    expect(about(findings, 'certificate')[0]!.message).toMatch(
      /is not in us-east-1 \(ResourceNotFoundException/,
    );
    expect(about(findings, 'ses-identity')[0]!.message).toBe(
      "the SES identity example.com exists already in eu-central-1: creating it fails the deploy (AlreadyExists). Set sesIdentity: 'adopt-domain' (infra/stages.ts)",
    );
    expect(about(findings, 'ses-sandbox')[0]!.message).toMatch(
      /^the account is in the SES sandbox in eu-central-1/,
    );
  });

  it('names the missing bootstrap of us-east-1 (the edge stack), the concurrency limit and the DKIM records not in DNS', () => {
    const bootstrap = about(findings, 'bootstrap');
    expect(bootstrap.map((b) => b.level)).toEqual(['ok', 'blocker']);
    expect(bootstrap[1]!.message).toContain('npx cdk bootstrap aws://123456789012/us-east-1');
    const concurrency = about(findings, 'lambda-concurrency')[0]!;
    expect(concurrency.level).toBe('blocker');
    expect(concurrency.message).toContain('at most 10 Lambda invocations');
    const dkim = about(findings, 'dkim-dns')[0]!;
    expect(dkim.level).toBe('warning');
    expect(dkim.message).toContain(
      '4bxjm6lbd5rgsdyvgdtdqz4pws4o3xmn._domainkey.example.com CNAME 4bxjm6lbd5rgsdyvgdtdqz4pws4o3xmn.dkim.amazonses.com',
    );
    expect(dkim.message).not.toContain('gx7kq3sl2vbbcwmu4ohxkd6qm4ruruzp._domainkey');
  });

  it('names the organisation trail that already records the region, instead of a paid second copy', () => {
    const trail = about(findings, 'trail')[0]!;
    expect(trail.level).toBe('warning');
    expect(trail.message).toMatch(
      /^arn:aws:cloudtrail:us-east-1:999999999999:trail\/org-trail already records this region's management events: set existingTrailArn/,
    );
  });

  it('prints blockers first, one line each', () => {
    const lines = formatFindings(findings).split('\n');
    expect(lines[0]).toMatch(/^BLOCKER {2}/);
    expect(lines.at(-1)).toMatch(/^OK {7}/);
    expect(lines).toHaveLength(findings.length);
  });
});

describe('the pre-deploy check on an account that is ready', () => {
  it('finds nothing that blocks prod', () => {
    const findings = check(READY());
    expect(blockers(findings)).toEqual([]);
    expect(about(findings, 'ses-identity')[0]!.message).toBe('example.com: will be created by the stack');
    expect(about(findings, 'dkim-dns')[0]!.message).toContain('add the outputs DkimRecord1..3');
  });

  it('blocks a certificate still waiting for validation, or one for another name', () => {
    const pending = READY();
    (pending.certificate as { ok: { Certificate: { Status: string } } }).ok.Certificate.Status =
      'PENDING_VALIDATION';
    expect(blockers(check(pending)).map((b) => b.message)).toEqual([
      'the certificate for firmware.example.com is PENDING_VALIDATION: add its DNS validation record and wait until it is ISSUED (aws acm describe-certificate --region us-east-1)',
    ]);
    expect(blockers(check(READY(), { domainName: 'portal.example.com' })).map((b) => b.check)).toEqual([
      'certificate',
    ]);
    expect(covers(['*.example.com'], 'firmware.example.com')).toBe(true);
    expect(covers(['*.example.com'], 'a.firmware.example.com')).toBe(false);
  });

  it('blocks adopting an identity that does not exist, and warns of a stage still marked as sandboxed', () => {
    expect(blockers(check(READY(), { sesIdentity: 'adopt-domain' }))[0]!.message).toBe(
      "the SES identity example.com does not exist in eu-central-1: set sesIdentity: 'create-domain', or create it first",
    );
    const sandboxed = check(READY(), { sesSandbox: true, sesSandboxRecipients: ['example.com'] });
    expect(blockers(sandboxed)).toEqual([]);
    expect(about(sandboxed, 'ses-sandbox')[0]!.level).toBe('warning');
  });

  it('blocks credentials of another account, a stack stuck in ROLLBACK_FAILED, and protected tables on a first create', () => {
    const other = READY();
    other.callerIdentity = { ok: { Account: '210987654321' } };
    expect(blockers(check(other))[0]!.message).toBe(
      'the credentials are of account 210987654321, but stage prod deploys to 123456789012 (infra/stages.ts)',
    );
    const stuck = READY();
    stuck.stacks['FirmwareReleasePortal-prod'] = {
      ok: { Stacks: [{ StackName: 'FirmwareReleasePortal-prod', StackStatus: 'ROLLBACK_FAILED' }] },
    };
    expect(blockers(check(stuck))[0]!.message).toMatch(/^FirmwareReleasePortal-prod is ROLLBACK_FAILED/);
    expect(blockers(check(READY(), { firstDeployDone: true }))[0]!.message).toMatch(
      /does not exist yet, but stage prod says firstDeployDone: true/,
    );
  });

  it('reminds to set firstDeployDone once the first deploy succeeded', () => {
    const deployed = READY();
    deployed.stacks['FirmwareReleasePortal-prod'] = {
      ok: { Stacks: [{ StackName: 'FirmwareReleasePortal-prod', StackStatus: 'CREATE_COMPLETE' }] },
    };
    const stack = about(check(deployed), 'stack')[0]!;
    expect(stack.level).toBe('warning');
    expect(stack.message).toContain('set firstDeployDone: true');
  });

  it("blocks the stack's own trail when the region has no trail left, and an existingTrailArn that records nothing", () => {
    const full = READY();
    const arns = [1, 2, 3, 4, 5].map((n) => `arn:aws:cloudtrail:eu-central-1:123456789012:trail/trail-${n}`);
    full.trails = { ok: { trailList: arns.map((TrailARN) => ({ TrailARN, HomeRegion: 'eu-central-1' })) } };
    expect(blockers(check(full, { firstDeployDone: true })).map((b) => b.check)).toContain('trail');
    const named = check(READY(), { existingTrailArn: arns[0] });
    expect(blockers(named)[0]!.message).toMatch(/^existingTrailArn .*trail-1 is not a logging trail/);
    const org = 'arn:aws:cloudtrail:us-east-1:999999999999:trail/org-trail';
    expect(about(check(NEW(), { existingTrailArn: org }), 'trail')[0]!.level).toBe('ok');
  });

  it('only warns of a low concurrency limit on a throw-away stage', () => {
    const low = READY();
    low.lambdaAccount = { ok: { AccountLimit: { ConcurrentExecutions: 10 } } };
    const staging = checkPrerequisites('staging', checkStage('staging', STAGES.staging), low);
    expect(about(staging, 'lambda-concurrency')[0]!.level).toBe('warning');
  });
});
