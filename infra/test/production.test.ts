import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type TableName, tablesWritten } from '../../shared/api/routes';
import { ASYNC_WORKERS, WORKERS } from '../../shared/api/workers';
import { KEY_ACCOUNT_ACTIONS, Signing } from '../lib/constructs/signing';
import { SigningTrail } from '../lib/constructs/trail';
import { ConfigError, readConfig } from '../lib/portal-config';
import { STAGES } from '../stages';
import { type Synthesized, synthPortal } from './support/synth';
import {
  actionsOf,
  type Json,
  resourcesOfType,
  type Statement,
  statementsOfFunction,
} from './support/template';

/** The dev stage of infra/stages.ts with some settings added, checked as a synth checks it. */
const configWith = (patch: Record<string, unknown> = {}) =>
  readConfig(new App({ context: { allowPlaceholderWeb: 'true' } }).node, {
    dev: { ...STAGES.dev, ...patch },
  });

/** Production security and operations (decisions 205–209). */
let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

const resources = (type: string) => resourcesOfType(s, type);
type KeyStatement = Statement & { Sid?: string; Principal?: unknown; Condition?: Json };
/** The policy of the release key, or of the development key (decision 295). */
const keyPolicy = (which: 'release' | 'dev' = 'release'): KeyStatement[] => {
  const key = which === 'release' ? s.stack.signing.packageKey : s.stack.signing.devKey;
  const props = s.json.Resources[s.logicalId(key)]!.Properties as Json;
  return (props.KeyPolicy as { Statement: KeyStatement[] }).Statement;
};
const rootPrincipal = (st: KeyStatement) => JSON.stringify(st.Principal).includes(':root');

/** Function logical id → who it is: the route id, or the worker id, from its description. */
function functionsByName(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, props] of resources('AWS::Lambda::Function')) {
    const d = String(props.Description ?? '');
    const route = /\((\w+)\)$/.exec(d)?.[1];
    const worker = /^(?:Stream worker|Asynchronous worker|Failure handler) (\w+)/.exec(d)?.[1];
    const name = route ? `route ${route}` : worker ? `worker ${worker}` : undefined;
    if (name) out.set(name, id);
  }
  return out;
}

describe('the signing key belongs to signing (decision 205)', () => {
  it('gives the account administration only: no Sign, no CreateGrant, no deletion, no kms:*', () => {
    // (Sign is delegated to IAM for the signing roles alone: next test)
    const fromRoot = keyPolicy().filter(
      (st) =>
        st.Effect === 'Allow' &&
        rootPrincipal(st) &&
        !JSON.stringify(st.Condition ?? {}).includes('PrincipalArn'),
    );
    const actions = fromRoot.flatMap(actionsOf);
    for (const a of ['kms:*', 'kms:Sign', 'kms:CreateGrant', 'kms:ScheduleKeyDeletion', 'kms:Decrypt'])
      expect(actions).not.toContain(a);
    for (const a of actions) expect(a).not.toContain('*');
    // the CloudFormation execution role works through IAM: it keeps PutKeyPolicy (no lockout)
    expect(actions).toEqual(
      expect.arrayContaining(['kms:PutKeyPolicy', 'kms:DescribeKey', 'kms:GetPublicKey']),
    );
  });

  it('lets the generateArtefact role alone sign (by its fixed name), and denies Sign to everyone else', () => {
    const fns = functionsByName();
    const genFn = s.json.Resources[fns.get('worker generateArtefact')!]!.Properties as Json;
    const roleId = (genFn.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const roleName = (s.json.Resources[roleId]!.Properties as Json).RoleName;
    expect(JSON.stringify(roleName)).toContain('frp-dev-generate-artefact-');
    // the ARN is built from the name: the key refers to no role (no cycle across nested stacks)
    const signer = JSON.stringify(s.stack.signing.signerRoleArns.map((a) => s.stack.resolve(a)));
    expect(signer).toContain('frp-dev-generate-artefact-');
    expect(signer).not.toContain(roleId);
    const allowSign = keyPolicy().filter((st) => st.Effect === 'Allow' && actionsOf(st).includes('kms:Sign'));
    expect(allowSign).toHaveLength(1);
    expect(rootPrincipal(allowSign[0]!)).toBe(true);
    expect(JSON.stringify(allowSign[0]!.Condition)).toBe(`{"StringEquals":{"aws:PrincipalArn":${signer}}}`);
    const deny = keyPolicy().find((st) => st.Effect === 'Deny' && actionsOf(st).includes('kms:Sign'))!;
    expect(deny.Principal).toEqual({ AWS: '*' });
    expect(JSON.stringify(deny.Condition)).toBe(`{"StringNotEquals":{"aws:PrincipalArn":${signer}}}`);
    // its IAM policy allows Sign on this key too (the account delegates to IAM for this role only)
    const iamSign = statementsOfFunction(s, fns.get('worker generateArtefact')!).filter((st) =>
      actionsOf(st).includes('kms:Sign'),
    );
    expect(JSON.stringify(iamSign)).toContain(s.logicalId(s.stack.signing.packageKey));
    // and no route can sign (the worker signs since decision 160)
    expect(ROUTES.filter((r) => r.uses.sign !== undefined && r.uses.sign !== 'publicKey')).toEqual([]);
  });

  it('keeps the two keys apart: the release key names the release worker alone, the development key the development worker alone (decision 295)', () => {
    const fns = functionsByName();
    const release = JSON.stringify(
      s.stack.signing.signerRoleArnsOf('RELEASE').map((a) => s.stack.resolve(a)),
    );
    const dev = JSON.stringify(s.stack.signing.signerRoleArnsOf('DEV').map((a) => s.stack.resolve(a)));
    expect(release).toContain('frp-dev-generate-artefact-');
    expect(release).not.toContain('generate-dev-artefact');
    expect(dev).toContain('frp-dev-generate-dev-artefact-');
    expect(dev).not.toContain('frp-dev-generate-artefact-');
    for (const [which, signers] of [
      ['release', release],
      ['dev', dev],
    ] as const) {
      const policy = keyPolicy(which);
      const allow = policy.filter((st) => st.Effect === 'Allow' && actionsOf(st).includes('kms:Sign'));
      expect(
        allow.map((st) => JSON.stringify(st.Condition)),
        which,
      ).toEqual([`{"StringEquals":{"aws:PrincipalArn":${signers}}}`]);
      const deny = policy.find((st) => st.Effect === 'Deny' && actionsOf(st).includes('kms:Sign'))!;
      expect(JSON.stringify(deny.Condition), which).toBe(
        `{"StringNotEquals":{"aws:PrincipalArn":${signers}}}`,
      );
    }
    // each worker's IAM policy allows Sign on its own key and not on the other
    const signsOn = (worker: string) =>
      JSON.stringify(
        statementsOfFunction(s, fns.get(`worker ${worker}`)!).filter((st) =>
          actionsOf(st).includes('kms:Sign'),
        ),
      );
    const releaseKey = s.logicalId(s.stack.signing.packageKey);
    const devKey = s.logicalId(s.stack.signing.devKey);
    expect(signsOn('generateArtefact')).toContain(releaseKey);
    expect(signsOn('generateArtefact')).not.toContain(devKey);
    expect(signsOn('generateDevArtefact')).toContain(devKey);
    expect(signsOn('generateDevArtefact')).not.toContain(releaseKey);
    // the two keys are distinct ECC_NIST_P256 signing keys with their own aliases
    const props = (id: string) => s.json.Resources[id]!.Properties as Json;
    for (const id of [releaseKey, devKey]) {
      expect(props(id).KeySpec).toBe('ECC_NIST_P256');
      expect(props(id).KeyUsage).toBe('SIGN_VERIFY');
    }
    expect(
      resources('AWS::KMS::Alias')
        .map(([, a]) => a.AliasName)
        .sort(),
    ).toEqual(['alias/frp-dev-dev-package-signing', 'alias/frp-dev-package-signing']);
  });

  it('guards deletion: denied to all but the deployment role, a 30-day window, kept on stack deletion', () => {
    const deny = keyPolicy().find(
      (st) => st.Effect === 'Deny' && actionsOf(st).includes('kms:ScheduleKeyDeletion'),
    )!;
    expect(JSON.stringify(deny.Condition)).toContain('cfn-exec-role');
    const allow = keyPolicy().find(
      (st) => st.Effect === 'Allow' && actionsOf(st).includes('kms:ScheduleKeyDeletion'),
    )!;
    expect(allow.Condition).toMatchObject({
      NumericGreaterThanEquals: { 'kms:ScheduleKeyDeletionPendingWindowInDays': 30 },
    });
    expect(JSON.stringify(allow.Condition)).toContain('cfn-exec-role');
    const keys = resources('AWS::KMS::Key');
    expect(keys).toHaveLength(2);
    for (const [id, key] of keys) {
      expect(key.PendingWindowInDays, id).toBe(30);
      expect(s.json.Resources[id]!.DeletionPolicy, id).toBe('RetainExceptOnCreate');
      expect(s.json.Resources[id]!.UpdateReplacePolicy, id).toBe('Retain');
    }
  });

  it('gives a configured key admin role administration and slow deletion, never signing, named only in conditions', () => {
    const app = new App();
    const stack = new Stack(app, 'KeyAdmin');
    const signing = new Signing(stack, 'Signing', {
      config: configWith({ signingKeyAdminRoleArn: 'arn:aws:iam::123456789012:role/key-admin' }),
    });
    signing.allowSigning('RELEASE', 'arn:aws:iam::123456789012:role/frp-dev-signer');
    const [key] = Object.values(Template.fromStack(stack).findResources('AWS::KMS::Key'));
    const sts = (key!.Properties as { KeyPolicy: { Statement: KeyStatement[] } }).KeyPolicy.Statement;
    // KMS refuses a policy whose Principal is a role that does not exist yet (decision 306)
    for (const st of sts) expect(JSON.stringify(st.Principal), st.Sid).not.toContain('role/');
    const admin = sts.filter(
      (st) => st.Effect === 'Allow' && JSON.stringify(st.Condition ?? {}).includes('role/key-admin'),
    );
    const adminActions = admin.flatMap(actionsOf);
    expect(adminActions).toEqual(expect.arrayContaining([...KEY_ACCOUNT_ACTIONS, 'kms:ScheduleKeyDeletion']));
    expect(adminActions).not.toContain('kms:Sign');
    for (const st of admin) expect(rootPrincipal(st), st.Sid).toBe(true);
    const denyDelete = sts.find(
      (st) => st.Effect === 'Deny' && actionsOf(st).includes('kms:ScheduleKeyDeletion'),
    )!;
    expect(JSON.stringify(denyDelete.Condition)).toContain('arn:aws:iam::123456789012:role/key-admin');
    const denySign = sts.find((st) => st.Effect === 'Deny' && actionsOf(st).includes('kms:Sign'))!;
    expect(JSON.stringify(denySign.Condition)).not.toContain('key-admin');
  });
});

describe('CloudTrail records the key (decision 206)', () => {
  it('keeps a trail of management events (KMS Sign is one), validated files, a log group, and an alarm on key changes', () => {
    const [[, trail]] = [resources('AWS::CloudTrail::Trail')[0]!];
    expect(trail.IsLogging).toBe(true);
    expect(trail.EnableLogFileValidation).toBe(true);
    expect(trail.CloudWatchLogsLogGroupArn).toBeDefined();
    expect(trail.EventSelectors).toEqual([{ IncludeManagementEvents: true, ReadWriteType: 'All' }]);
    const keyId = s.logicalId(s.stack.signing.packageKey);
    const filters = resources('AWS::Logs::MetricFilter');
    const keyFilter = filters.find(([, f]) => JSON.stringify(f.FilterPattern).includes(keyId));
    expect(keyFilter).toBeDefined();
    for (const e of ['PutKeyPolicy', 'ScheduleKeyDeletion', 'DisableKey', 'CreateGrant', 'AccessDenied'])
      expect(JSON.stringify(keyFilter![1].FilterPattern)).toContain(e);
    expect(s.stack.trail.keyAlarm).toBeDefined();
  });

  it('raises an alarm of its own on changes to the development key and refused calls on it (decision 350)', () => {
    const releaseId = s.logicalId(s.stack.signing.packageKey);
    const devId = s.logicalId(s.stack.signing.devKey);
    const devFilters = resources('AWS::Logs::MetricFilter').filter(([, f]) =>
      JSON.stringify(f.FilterPattern).includes(devId),
    );
    expect(devFilters).toHaveLength(1);
    const filter = devFilters[0]![1];
    const pattern = JSON.stringify(filter.FilterPattern);
    for (const e of ['PutKeyPolicy', 'ScheduleKeyDeletion', 'DisableKey', 'CreateGrant', 'AccessDenied'])
      expect(pattern).toContain(e);
    // one key per filter: the alarm's name says which key it was
    expect(pattern).not.toContain(releaseId);
    const transform = (filter.MetricTransformations as Json[])[0]!;
    const alarm = s.json.Resources[s.logicalId(s.stack.trail.devKeyAlarm!)]!.Properties as Json;
    expect([alarm.Namespace, alarm.MetricName]).toEqual([transform.MetricNamespace, transform.MetricName]);
    expect(transform.MetricName).not.toBe('SigningKeyAlerts');
    expect(alarm.AlarmActions).toEqual([{ Ref: s.logicalId(s.stack.monitoring.topic) }]);
  });

  it('uses an existing trail from config instead of making one', () => {
    const arn = 'arn:aws:cloudtrail:eu-central-1:123456789012:trail/org-trail';
    const app = new App();
    const stack = new Stack(app, 'Existing');
    const config = configWith({ existingTrailArn: arn });
    const signing = new Signing(stack, 'Signing', { config });
    const trail = new SigningTrail(stack, 'Trail', {
      config,
      signingKey: signing.packageKey,
      devSigningKey: signing.devKey,
      accessLogs: new s3.Bucket(stack, 'Logs'),
    });
    expect(trail.trailArn).toBe(arn);
    Template.fromStack(stack).resourceCountIs('AWS::CloudTrail::Trail', 0);
    expect(() => configWith({ existingTrailArn: 'org-trail' })).toThrow(ConfigError);
  });
});

describe('least privilege that holds (decision 205 in grant-uses: `writes`)', () => {
  const WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
  const tableId = (t: TableName) => s.logicalId(s.stack.data.tables[t]);

  /** One readable line per function and store: what its role may do there. */
  function grantLines(): string[] {
    const storeOf = new Map<string, string>();
    for (const t of Object.keys(s.stack.data.tables) as TableName[]) storeOf.set(tableId(t), `table ${t}`);
    for (const [b, bucket] of Object.entries(s.stack.data.buckets))
      storeOf.set(s.logicalId(bucket), `bucket ${b}`);
    storeOf.set(s.logicalId(s.stack.signing.packageKey), 'signing key');
    storeOf.set(s.logicalId(s.stack.signing.devKey), 'development signing key');
    storeOf.set(s.logicalId(s.stack.signing.tokenSecret), 'token secret');
    storeOf.set(s.logicalId(s.stack.signing.originVerifySecret), 'origin-verify secret');
    if (s.stack.mail.identity) storeOf.set(s.logicalId(s.stack.mail.identity), 'sender identity');
    const lines: string[] = [];
    for (const [name, fnId] of [...functionsByName()].sort(([a], [b]) => a.localeCompare(b))) {
      const per = new Map<string, Set<string>>();
      for (const st of statementsOfFunction(s, fnId))
        for (const resource of Array.isArray(st.Resource) ? st.Resource : [st.Resource]) {
          const text = JSON.stringify(resource);
          // SES identities are granted by ARN (the sender address, its domain, sandbox recipients)
          const identity = /:identity\/([^"]+)"/.exec(text)?.[1];
          const store =
            [...storeOf].find(([id]) => text.includes(`"${id}"`))?.[1] ??
            (identity ? `ses identity ${identity}` : undefined);
          if (!store) continue; // its own log group, the queues of its event sources
          const part = text.includes('/index/')
            ? ' indexes'
            : text.includes('StreamArn')
              ? ' stream'
              : text.includes('/*')
                ? ' objects'
                : '';
          const key = `${store}${part}`;
          if (!per.has(key)) per.set(key, new Set());
          for (const a of actionsOf(st)) per.get(key)!.add(a);
        }
      for (const [store, actions] of [...per].sort(([a], [b]) => a.localeCompare(b)))
        lines.push(`${name} | ${store} | ${[...actions].sort().join(' ')}`);
    }
    return lines;
  }

  it('pins the grants of every function (a change shows in review: infra/test/fixtures/grants.txt)', async () => {
    await expect(`${grantLines().join('\n')}\n`).toMatchFileSnapshot('./fixtures/grants.txt');
  });

  it('lets only the rows that change accounts, take a signature (its sign-in throttle) or count an access token write the users table', () => {
    const writers = grantLines()
      .filter((l) => l.includes('| table users |') && WRITE.some((a) => l.includes(a)))
      .map((l) => l.split(' | ')[0]!.replace('route ', ''))
      .sort();
    expect(writers).toEqual(
      ROUTES.filter((r) => r.method !== 'GET' && tablesWritten(r.uses).includes('users'))
        .map((r) => r.id)
        .sort(),
    );
    expect(writers).toEqual(
      [
        'adminDecideRoles',
        'adminDeletePackages',
        'adminDeleteUsers',
        'approveDelivery',
        'approvePackage',
        'cancelRegistration',
        'changePassword',
        'confirmEmail',
        'login',
        'logout',
        'notifyApprovers',
        'notifyDeliveryApprovers',
        'register',
        'rejectDelivery',
        'rejectPackage',
        'rejectSigning',
        'resendConfirmation',
        'resetPassword',
        'signPackage',
        'updateAccount',
        // access tokens: made and revoked on the account; the rows a token may call that change
        // something count its quota and last use in the users table (decision 257)
        'createAccessToken',
        'revokeAccessToken',
        'uploadPatch',
        'uploadModel',
        'requestResourceUpload',
        'confirmResourceUpload',
        'startMultipartUpload',
        'presignUploadParts',
        'completeMultipartUpload',
        'abortResourceUpload',
        'generatePackage',
        'updateHeader',
        'attachDcc',
        // build provenance and SBOM (decision 275)
        'attachProvenance',
        // company sign-on (decision 315): sign-ins under way, links, offers and reauthentication tickets
        'startCompanySignOn',
        'companySignOnCallback',
        'linkCompanyIdentity',
        'requestCompanyLink',
        'startCompanyReauth',
        'adminDecideCompanyLinks',
        // passkeys (decisions 322, 323): the passkeys and their single-use ceremonies
        'addPasskey',
        'renamePasskey',
        'removePasskey',
        'loginPasskey',
        'passkeyRegistrationOptions',
        'passkeySignatureOptions',
        'adminDecidePasskeyRemoval',
        // change of people (decision 351): signed, so the sign-in throttle of a wrong password
        'reassignPackage',
        'withdrawPackage',
      ].sort(),
    );
  });

  it('lets audit writers only add (PutItem), never update or delete; the code adds only new items', () => {
    for (const line of grantLines().filter((l) => l.includes('| table audit |'))) {
      for (const a of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
        expect(line).not.toContain(a);
    }
  });

  it('keeps workers read-only on the tables they only read', () => {
    for (const w of [...WORKERS, ...ASYNC_WORKERS, ...ASYNC_WORKERS.map((a) => ({ ...a.failure }))]) {
      const lines = grantLines().filter((l) => l.startsWith(`worker ${w.id} |`));
      for (const t of w.uses.tables) {
        const line = lines.find((l) => l.startsWith(`worker ${w.id} | table ${t} |`));
        expect(line, `${w.id} ${t}`).toBeDefined();
        expect(
          WRITE.some((a) => line!.includes(a)),
          `${w.id} writes ${t}`,
        ).toBe(tablesWritten(w.uses).includes(t));
      }
    }
    const gen = grantLines().filter((l) => l.startsWith('worker generateArtefact |'));
    expect(gen.find((l) => l.includes('| table resources |'))).not.toMatch(/PutItem|UpdateItem|DeleteItem/);
    expect(gen.find((l) => l.includes('| table dcc |'))).not.toMatch(/PutItem|UpdateItem|DeleteItem/);
  });
});

describe('operators hear and act (decision 209)', () => {
  it('sends every alarm of the stack to the on-call topic, on ALARM and back to OK', () => {
    const topic = s.logicalId(s.stack.monitoring.topic);
    const alarms = resources('AWS::CloudWatch::Alarm');
    // worker and generation dead letters, failed generations, API 5xx, mail age, signing key, and the
    // alarms of decision 311 (operations.test.ts names them)
    expect(alarms.length).toBeGreaterThanOrEqual(9);
    for (const [id, a] of alarms) {
      expect(a.AlarmActions, id).toEqual([{ Ref: topic }]);
      expect(a.OKActions, id).toEqual([{ Ref: topic }]);
    }
    const [, t] = resources('AWS::SNS::Topic')[0]!;
    expect(t).toBeDefined();
    // the topic refuses publishing without TLS
    const policy = resources('AWS::SNS::TopicPolicy').find(([, p]) =>
      JSON.stringify(p.Topics).includes(topic),
    );
    expect(JSON.stringify(policy?.[1].PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('has one dashboard with errors, throttles, backlog, dead letters and mail outbox age', () => {
    const dashboards = resources('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].DashboardBody);
    for (const m of [
      '5XXError',
      'Errors',
      'Throttles',
      'AsyncEventAge',
      'ApproximateNumberOfMessagesVisible',
      'IteratorAge',
    ])
      expect(body, m).toContain(m);
    for (const q of [
      ...s.stack.workers.deadLetterQueues.values(),
      ...s.stack.generation.deadLetterQueues.values(),
    ])
      expect(body).toContain(s.logicalId(q));
  });
});
