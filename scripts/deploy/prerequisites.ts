import { EDGE_REGION, edgeStackName } from '../../infra/lib/constructs/edge';
import { stackName } from '../../infra/lib/portal-app';
import type { StageConfig } from '../../infra/lib/portal-config';
import type { Answer, EmailIdentity, RecordedAnswers, TrailSummary } from './answers';

/**
 * What must be true in the account before `cdk deploy` starts (decision 309): every check is a pure
 * function of the recorded AWS answers (answers.ts), so each is tested on JSON and the same code runs
 * against a live account. A blocker stops `npm run deploy`; a warning is printed and the deploy goes on.
 */
export type Level = 'blocker' | 'warning' | 'ok';

export interface Finding {
  level: Level;
  /** which prerequisite: account, bootstrap, stack, key-admin-role, certificate, ses-identity, dkim-dns, ses-sandbox, trail, lambda-concurrency */
  check: string;
  message: string;
}

/** Concurrent executions below which a handful of users can be throttled (one function per route). */
export const REQUIRED_CONCURRENCY = 100;
/** CloudTrail's trails per region (service quota, not adjustable). */
export const TRAILS_PER_REGION = 5;
/** CloudFormation states after which `cdk deploy` cannot go on until someone cleans up. */
const STUCK = ['ROLLBACK_FAILED', 'DELETE_FAILED', 'UPDATE_ROLLBACK_FAILED', 'IMPORT_ROLLBACK_FAILED'];

const missing = (a: Answer<unknown> | undefined, ...names: string[]): boolean =>
  a !== undefined && 'error' in a && names.includes(a.error.name);
const errorOf = (a: Answer<unknown> | undefined): string | undefined =>
  a && 'error' in a ? `${a.error.name}: ${a.error.message}` : undefined;

/** Every finding for one stage, in the order an operator fixes them. */
export function checkPrerequisites(name: string, stage: StageConfig, answers: RecordedAnswers): Finding[] {
  const out: Finding[] = [];
  const add = (level: Level, check: string, message: string) => out.push({ level, check, message });
  const region = answers.region;
  const strict = stage.terminationProtection || name === 'prod';

  // ── account and bootstrap ──────────────────────────────────────────────────────────────────
  const caller = answers.callerIdentity;
  const account = 'ok' in caller ? caller.ok.Account : undefined;
  if (!account) add('blocker', 'account', `no AWS credentials that work (${errorOf(caller)})`);
  else if (stage.account && account !== stage.account)
    add(
      'blocker',
      'account',
      `the credentials are of account ${account}, but stage ${name} deploys to ${stage.account} (infra/stages.ts)`,
    );
  else add('ok', 'account', `account ${account}, region ${region}`);

  const regions = stage.webAclArn === undefined ? [...new Set([region, EDGE_REGION])] : [region];
  for (const r of regions) {
    const b = answers.bootstrap[r];
    if (!b || 'error' in b || !b.ok.Stacks?.length)
      add(
        'blocker',
        'bootstrap',
        `CDK is not bootstrapped in ${r}${r === EDGE_REGION && r !== region ? ' (the edge stack with the CloudFront web ACL deploys there)' : ''}: npx cdk bootstrap aws://${account ?? '<account>'}/${r}`,
      );
    else add('ok', 'bootstrap', `CDK bootstrapped in ${r}`);
  }

  // ── the stacks' own state ──────────────────────────────────────────────────────────────────
  const main = stackName(name);
  for (const stack of [main, ...(stage.webAclArn === undefined ? [edgeStackName(name)] : [])]) {
    const a = answers.stacks[stack];
    const status = a && 'ok' in a ? a.ok.Stacks?.[0]?.StackStatus : undefined;
    if (status && STUCK.includes(status))
      add(
        'blocker',
        'stack',
        `${stack} is ${status}: clean it up first (docs/infra.md, "A failed first deploy")`,
      );
    else if (status === 'ROLLBACK_COMPLETE')
      add('warning', 'stack', `${stack} is ROLLBACK_COMPLETE: the deploy deletes it and creates it again`);
    else if (stack === main) {
      const exists = status !== undefined && !missing(a, 'ValidationError');
      if (!exists && stage.deletionProtection && stage.firstDeployDone)
        add(
          'blocker',
          'stack',
          `${stack} does not exist yet, but stage ${name} says firstDeployDone: true: a failed first create could not roll back (protected tables). Set firstDeployDone: false for the first deploy (infra/stages.ts)`,
        );
      else if (exists && !stage.firstDeployDone && stage.deletionProtection && /_COMPLETE$/.test(status!))
        add(
          'warning',
          'stack',
          `${stack} is ${status}: after its first success set firstDeployDone: true (infra/stages.ts) so this deploy turns on the protections, the trail and the access logs`,
        );
      else add('ok', 'stack', exists ? `${stack} is ${status}` : `${stack} will be created`);
    }
  }

  // ── the signing key's administrator ────────────────────────────────────────────────────────
  if (stage.signingKeyAdminRoleArn) {
    const role = answers.keyAdminRole;
    if (missing(role, 'NoSuchEntityException', 'NoSuchEntity'))
      add(
        'blocker',
        'key-admin-role',
        `the signing key admin role ${stage.signingKeyAdminRoleArn} does not exist: create it first (docs/infra.md, "Signing key"), or remove signingKeyAdminRoleArn from the stage`,
      );
    else if (!role || 'error' in role)
      add('blocker', 'key-admin-role', `cannot read ${stage.signingKeyAdminRoleArn} (${errorOf(role)})`);
    else add('ok', 'key-admin-role', `key admin role ${role.ok.Role?.RoleName} exists`);
  }

  // ── CloudFront's certificate, in us-east-1 ─────────────────────────────────────────────────
  if (stage.certificateArn && stage.domainName) {
    const c = answers.certificate;
    const cert = c && 'ok' in c ? c.ok.Certificate : undefined;
    if (!cert)
      add(
        'blocker',
        'certificate',
        `the certificate ${stage.certificateArn} is not in us-east-1 (${errorOf(c) ?? 'no answer'}): request it there (docs/infra.md, step "Stage settings")`,
      );
    else if (cert.Status !== 'ISSUED')
      add(
        'blocker',
        'certificate',
        `the certificate for ${cert.DomainName} is ${cert.Status}: add its DNS validation record and wait until it is ISSUED (aws acm describe-certificate --region us-east-1)`,
      );
    else if (!covers([cert.DomainName, ...(cert.SubjectAlternativeNames ?? [])], stage.domainName))
      add('blocker', 'certificate', `the certificate does not cover ${stage.domainName}`);
    else add('ok', 'certificate', `certificate for ${stage.domainName} issued in us-east-1`);
  }

  // ── SES: the sender identity (create or adopt), its DKIM records, the sandbox ──────────────
  sesFindings(stage, answers, add);

  // ── CloudTrail: the stack's own trail, or one that records the region already ──────────────
  trailFindings(stage, answers, add);

  // ── Lambda concurrency ─────────────────────────────────────────────────────────────────────
  const lambda = answers.lambdaAccount;
  const limit = 'ok' in lambda ? lambda.ok.AccountLimit?.ConcurrentExecutions : undefined;
  if (limit === undefined) add('warning', 'lambda-concurrency', `cannot read it (${errorOf(lambda)})`);
  else if (limit < REQUIRED_CONCURRENCY)
    add(
      strict ? 'blocker' : 'warning',
      'lambda-concurrency',
      `the account runs at most ${limit} Lambda invocations at once in ${region}: a handful of users get throttled. Ask for ${REQUIRED_CONCURRENCY} or more in Service Quotas ("Concurrent executions", Lambda) first`,
    );
  else add('ok', 'lambda-concurrency', `${limit} concurrent executions`);
  return out;
}

/** Whether a certificate's names cover a domain (exactly, or by a `*.` wildcard one level up). */
export function covers(names: (string | undefined)[], domain: string): boolean {
  return names.some(
    (n) =>
      n === domain ||
      (n?.startsWith('*.') === true &&
        domain.endsWith(n.slice(1)) &&
        domain.split('.').length === n.split('.').length),
  );
}

type Add = (level: Level, check: string, message: string) => void;

function sesFindings(stage: StageConfig, answers: RecordedAnswers, add: Add): void {
  const { senderAddress, senderDomain, sesIdentity } = stage;
  const identity = sesIdentity.endsWith('domain') ? senderDomain : senderAddress;
  const a = answers.sesIdentities[identity];
  const exists = a !== undefined && 'ok' in a;
  const absent = missing(a, 'NotFoundException');
  if (!exists && !absent)
    add('blocker', 'ses-identity', `cannot read the SES identity ${identity} (${errorOf(a) ?? 'no answer'})`);
  else if (sesIdentity.startsWith('create') && exists)
    add(
      'blocker',
      'ses-identity',
      `the SES identity ${identity} exists already in ${answers.region}: creating it fails the deploy (AlreadyExists). Set sesIdentity: '${sesIdentity.replace('create', 'adopt')}' (infra/stages.ts)`,
    );
  else if (sesIdentity.startsWith('adopt') && absent)
    add(
      'blocker',
      'ses-identity',
      `the SES identity ${identity} does not exist in ${answers.region}: set sesIdentity: '${sesIdentity.replace('adopt', 'create')}', or create it first`,
    );
  else if (exists && a.ok.VerifiedForSendingStatus !== true)
    add(
      'warning',
      'ses-identity',
      `the SES identity ${identity} is not verified yet: SES refuses mail from it until it is`,
    );
  else
    add('ok', 'ses-identity', `${identity}: ${exists ? 'exists, adopted' : 'will be created by the stack'}`);

  if (sesIdentity === 'create-domain' && absent)
    add('ok', 'dkim-dns', `after the deploy add the outputs DkimRecord1..3 to the DNS of ${senderDomain}`);
  if (sesIdentity.endsWith('domain') && exists) dkimFindings(senderDomain, a.ok, answers, add);

  const acct = answers.sesAccount;
  const production = 'ok' in acct ? acct.ok.ProductionAccessEnabled : undefined;
  if (production === undefined)
    add('warning', 'ses-sandbox', `cannot read the SES account (${errorOf(acct)})`);
  else if (!production && !stage.sesSandbox)
    add(
      'blocker',
      'ses-sandbox',
      `the account is in the SES sandbox in ${answers.region}: mail reaches verified identities only. Set sesSandbox: true with sesSandboxRecipients, or request production access first (docs/infra.md, "Mail (SES)")`,
    );
  else if (production && stage.sesSandbox)
    add(
      'warning',
      'ses-sandbox',
      `the account is out of the SES sandbox: set sesSandbox: false and drop sesSandboxRecipients`,
    );
  else add('ok', 'ses-sandbox', production ? 'production access' : 'sandbox, as the stage says');
}

function dkimFindings(domain: string, identity: EmailIdentity, answers: RecordedAnswers, add: Add): void {
  const dkim = identity.DkimAttributes;
  if (dkim?.Status === 'SUCCESS') {
    add('ok', 'dkim-dns', `DKIM of ${domain} verified`);
    return;
  }
  const unresolved = (dkim?.Tokens ?? []).filter((token) => {
    const name = `${token}._domainkey.${domain}`;
    const r = answers.dkimDns[name];
    return !(r && 'ok' in r && r.ok.some((t) => t.replace(/\.$/, '') === `${token}.dkim.amazonses.com`));
  });
  if (unresolved.length > 0)
    add(
      'warning',
      'dkim-dns',
      `DKIM of ${domain} is ${dkim?.Status ?? 'unknown'}; missing CNAME records: ${unresolved.map((t) => `${t}._domainkey.${domain} CNAME ${t}.dkim.amazonses.com`).join('; ')}`,
    );
  else
    add(
      'warning',
      'dkim-dns',
      `DKIM records of ${domain} resolve; SES has not verified them yet (${dkim?.Status})`,
    );
}

/** Whether a trail's selectors record this region's KMS management events (the signing key's use). */
function recordsKms(sel: RecordedAnswers['trailSelectors'][string] | undefined): boolean {
  if (!sel || 'error' in sel) return false;
  const basic = (sel.ok.EventSelectors ?? []).some(
    (e) =>
      e.IncludeManagementEvents !== false &&
      (e.ReadWriteType ?? 'All') === 'All' &&
      !(e.ExcludeManagementEventSources ?? []).includes('kms.amazonaws.com'),
  );
  const advanced = (sel.ok.AdvancedEventSelectors ?? []).some((a) => {
    const fields = a.FieldSelectors ?? [];
    const management = fields.some((f) => f.Field === 'eventCategory' && f.Equals?.includes('Management'));
    const excludesKms = fields.some(
      (f) => f.Field === 'eventSource' && f.NotEquals?.includes('kms.amazonaws.com'),
    );
    const readOnlySplit = fields.some((f) => f.Field === 'readOnly');
    return management && !excludesKms && !readOnlySplit;
  });
  return basic || advanced;
}

function trailFindings(stage: StageConfig, answers: RecordedAnswers, add: Add): void {
  const t = answers.trails;
  if ('error' in t) {
    add('warning', 'trail', `cannot list the trails (${errorOf(t)})`);
    return;
  }
  const list: TrailSummary[] = t.ok.trailList ?? [];
  const region = answers.region;
  const logging = (arn: string) => {
    const l = answers.trailLogging[arn];
    return l !== undefined && 'ok' in l && l.ok.IsLogging === true;
  };
  const recording = list.filter(
    (x) =>
      (x.HomeRegion === region || x.IsMultiRegionTrail === true) &&
      x.TrailARN !== undefined &&
      recordsKms(answers.trailSelectors[x.TrailARN]) &&
      logging(x.TrailARN),
  );
  if (stage.existingTrailArn) {
    if (recording.some((x) => x.TrailARN === stage.existingTrailArn)) {
      add('ok', 'trail', `${stage.existingTrailArn} records the signing key's use`);
      return;
    }
    add(
      'blocker',
      'trail',
      `existingTrailArn ${stage.existingTrailArn} is not a logging trail that records this region's KMS events (trails seen: ${list.map((x) => x.TrailARN).join(', ') || 'none'})`,
    );
    return;
  }
  const own = list.filter((x) => x.HomeRegion === region).length;
  if (own >= TRAILS_PER_REGION && stage.firstDeployDone)
    add(
      'blocker',
      'trail',
      `${own} trails already live in ${region} (the quota is ${TRAILS_PER_REGION}): the stack cannot add its own. Set existingTrailArn to one that records this region`,
    );
  else if (recording.length > 0)
    add(
      own >= TRAILS_PER_REGION ? 'blocker' : 'warning',
      'trail',
      `${recording[0]!.TrailARN} already records this region's management events: set existingTrailArn to it (infra/stages.ts); the stack's own trail would be a second, paid copy${own >= TRAILS_PER_REGION ? ', and the region has no trail left in its quota' : ''}`,
    );
  else add('ok', 'trail', `the stack makes its own trail (${own} of ${TRAILS_PER_REGION} in ${region} used)`);
}
