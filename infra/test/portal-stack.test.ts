import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_STAGE, type BucketName, ROUTES, type Route, type TableName } from '../../shared/api/routes';
import { BINARY_MEDIA_TYPES, bucketEnv, SECURITY_HEADERS, tableEnv } from '../../shared/api/runtime';
import { asyncWorkerEnv } from '../../shared/api/workers';
import { DEFAULT_APPROVAL_POLICY } from '../../shared/domain/approval-policies';
import { DEFAULT_SITE_SETTINGS } from '../../shared/site-settings';
import { BUCKETS, TABLES } from '../lib/definitions';
import { ROUTE_STACKS } from '../lib/portal-stack';
import { deployedSiteSettings, type Synthesized, synthPortal } from './support/synth';
import {
  actionsOf,
  type Json,
  resourcesOfType,
  type Statement,
  statementsOfFunction,
} from './support/template';

let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

const resources = (type: string) => resourcesOfType(s, type);

/** Route id → logical id of its Lambda (the description ends with the route id). */
function routeFunctions(): Map<string, [string, Json]> {
  const out = new Map<string, [string, Json]>();
  for (const [id, props] of resources('AWS::Lambda::Function')) {
    const m = /\((\w+)\)$/.exec(String(props.Description ?? ''));
    if (m?.[1]) out.set(m[1], [id, props]);
  }
  return out;
}

function fnOf(route: Route): [string, Json] {
  const f = routeFunctions().get(route.id);
  if (!f) throw new Error(`no function for ${route.id}`);
  return f;
}

/** Every statement of the policies attached to a route's role. */
const statementsOf = (route: Route) => statementsOfFunction(s, fnOf(route)[0]);

const resourcesOf = (st: Statement): unknown[] => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]);
const allActions = (route: Route): Set<string> => new Set(statementsOf(route).flatMap(actionsOf));
const tableId = (t: TableName) => s.logicalId(s.stack.data.tables[t]);
const bucketId = (b: BucketName) => s.logicalId(s.stack.data.buckets[b]);

/** API Gateway path of a Resource, rebuilt from PathPart and parents. */
function resourcePath(ref: unknown): string {
  const r = ref as Json;
  if (r['Fn::GetAtt']) return '';
  const id = r.Ref as string;
  const props = s.json.Resources[id]?.Properties as Json;
  return `${resourcePath(props.ParentId)}/${props.PathPart as string}`;
}

describe('API Gateway and Lambda, one per row of the route table', () => {
  it('makes exactly one Lambda per route (plus the CDK deployment helper and the stream workers)', () => {
    const fns = routeFunctions();
    expect([...fns.keys()].sort()).toEqual(ROUTES.map((r) => r.id).sort());
    expect(fns.size).toBe(ROUTES.length);
    const others = resources('AWS::Lambda::Function').filter(
      ([id]) => ![...fns.values()].some(([f]) => f === id),
    );
    const ids = others.map(([id]) => id);
    expect(ids.filter((id) => id.startsWith('CustomCDKBucketDeployment'))).toHaveLength(1);
    expect(ids.filter((id) => !id.startsWith('CustomCDKBucketDeployment')).sort()).toEqual(
      [
        ...[...s.stack.workers.functions.values()].map((f) => s.logicalId(f)),
        // the asynchronous generation worker and its failure handler (decision 160; generation.test.ts)
        ...[...s.stack.generation.functions.values()].map((f) => s.logicalId(f)),
        ...[...s.stack.generation.failureFunctions.values()].map((f) => s.logicalId(f)),
      ].sort(),
    );
  });

  it('makes exactly one method per route, on the route path, proxied to that route’s Lambda', () => {
    const methods = resources('AWS::ApiGateway::Method');
    expect(methods).toHaveLength(ROUTES.length);
    const seen = methods.map(([, m]) => `${m.HttpMethod as string} ${resourcePath(m.ResourceId)}`).sort();
    expect(seen).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const [, m] of methods) {
      const route = ROUTES.find((r) => r.method === m.HttpMethod && r.path === resourcePath(m.ResourceId))!;
      const integration = m.Integration as Json;
      expect(integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(integration.Uri)).toContain(`"${fnOf(route)[0]}"`);
      expect(m.AuthorizationType).toBe('NONE');
      const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((x) => `method.request.path.${x[1]}`);
      expect(Object.keys((m.RequestParameters as Json | undefined) ?? {}).sort()).toEqual(params.sort());
      expect(m.RequestValidatorId).toBeDefined();
    }
  });

  it('serves the API on stage dev with access logs, execution logs without bodies, and throttling', () => {
    expect(API_STAGE).toBe('dev');
    s.template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    s.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      // X-Ray: the stage's segment (decision 312); per-route throttles: operations.test.ts (decision 308)
      TracingEnabled: true,
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        }),
      ]),
    });
    s.template.hasResourceProperties('AWS::ApiGateway::Account', { CloudWatchRoleArn: Match.anyValue() });
  });

  it('accepts the binary media types of uploads and validates requests', () => {
    s.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      BinaryMediaTypes: BINARY_MEDIA_TYPES,
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    s.template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
    });
  });

  it('runs every route on nodejs22.x, arm64, under the 29 s API limit, with the memory of its row', () => {
    for (const route of ROUTES) {
      const [, fn] = fnOf(route);
      expect(fn.Runtime, route.id).toBe('nodejs22.x');
      expect(fn.Architectures, route.id).toEqual(['arm64']);
      expect(fn.Timeout as number, route.id).toBeLessThan(29);
      expect(fn.MemorySize, route.id).toBe(route.memoryMb ?? 512);
      expect(fn.Handler, route.id).toBe('index.handler');
    }
  });

  it('gives each function exactly the environment its row needs', () => {
    for (const route of ROUTES) {
      const vars = ((fnOf(route)[1].Environment as Json).Variables ?? {}) as Json;
      // every route refuses calls that skipped CloudFront, with the origin-verify secret (decision 208)
      // and every function writes its business metrics to the stage's namespace (decision 312)
      const expected = [
        'API_STAGE',
        'ORIGIN_VERIFY_REQUIRED',
        'ORIGIN_VERIFY_SECRET_ARN',
        'METRICS_NAMESPACE',
      ];
      for (const t of route.uses.tables) expected.push(tableEnv(t));
      for (const b of Object.keys(route.uses.buckets ?? {})) expected.push(bucketEnv(b as BucketName));
      if (route.access !== 'public' || route.uses.tables.includes('users')) expected.push('TOKEN_SECRET_ARN');
      if (route.uses.mail) expected.push('MAIL_FROM');
      // every route: the passkeys' relying party and rule (decision 322); outbox rows' mail links use
      // the same origin (decision 095)
      expected.push('APP_URL', 'PASSKEYS_REQUIRED');
      // every route: the stage's approval policy by name (decision 338)
      expected.push('APPROVAL_POLICY');
      // a signer its own stage's key; a public-key reader both (decision 295)
      if (route.uses.sign === 'publicKey') expected.push('SIGNING_KEY_ID', 'DEV_SIGNING_KEY_ID');
      else if (route.uses.sign === 'DEV') expected.push('DEV_SIGNING_KEY_ID');
      else if (route.uses.sign) expected.push('SIGNING_KEY_ID');
      for (const w of route.uses.invoke ?? []) expected.push(asyncWorkerEnv(w));
      expect(Object.keys(vars).sort(), route.id).toEqual(expected.sort());
      expect(vars.API_STAGE).toBe('dev');
      expect(vars.ORIGIN_VERIFY_REQUIRED, route.id).toBe('true');
      for (const t of route.uses.tables) expect(vars[tableEnv(t)], route.id).toEqual({ Ref: tableId(t) });
    }
  });

  it('reads the users table on every route that checks a token', () => {
    for (const route of ROUTES.filter((r) => r.access !== 'public'))
      expect(route.uses.tables, route.id).toContain('users');
  });
});

/** X-Ray active tracing's write actions: no resource-level permissions, so `*` (decision 312). */
const isXray = (st: Statement): boolean =>
  st.Resource === '*' &&
  JSON.stringify(actionsOf(st).sort()) ===
    JSON.stringify(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);

describe('least-privilege IAM per function', () => {
  it('grants no wildcard action, and wildcard resources only as objects of the buckets the row lists', () => {
    for (const route of ROUTES) {
      const allowedObjects = Object.keys(route.uses.buckets ?? {}).map((b) =>
        JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(b as BucketName), 'Arn'] }, '/*']] }),
      );
      for (const st of statementsOf(route)) {
        expect(st.Effect).toBe('Allow');
        for (const a of actionsOf(st)) expect(a, `${route.id} ${a}`).not.toContain('*');
        if (isXray(st)) continue;
        for (const r of resourcesOf(st)) {
          const text = JSON.stringify(r);
          if (text.includes('*')) expect(allowedObjects, `${route.id} ${text}`).toContain(text);
        }
      }
    }
  });

  it('reaches only the tables (and their named indexes) the row lists', () => {
    for (const route of ROUTES) {
      const ddb = statementsOf(route).filter((st) => actionsOf(st).some((a) => a.startsWith('dynamodb:')));
      const text = JSON.stringify(ddb);
      for (const t of Object.keys(TABLES) as TableName[]) {
        const listed = route.uses.tables.includes(t);
        expect(text.includes(`"${tableId(t)}"`), `${route.id} → ${t}`).toBe(listed);
        if (listed)
          for (const index of TABLES[t].indexes)
            expect(text, `${route.id} → ${t}/${index.name}`).toContain(
              JSON.stringify({
                'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(t), 'Arn'] }, `/index/${index.name}`]],
              }),
            );
      }
      expect(text).not.toContain('/index/*');
    }
  });

  it('keeps GET routes read-only and the audit trail append-only', () => {
    const writes = [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ];
    for (const route of ROUTES) {
      const sts = statementsOf(route);
      if (route.method === 'GET')
        for (const a of [...writes, 's3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject', 'kms:Sign'])
          expect(allActions(route).has(a), `${route.id} ${a}`).toBe(false);
      const onAudit = sts.filter((st) =>
        JSON.stringify(st.Resource).includes(`["${tableId('audit')}","Arn"]`),
      );
      for (const st of onAudit)
        for (const a of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
          expect(actionsOf(st), `${route.id} on audit`).not.toContain(a);
    }
  });

  it('gives S3 actions per bucket exactly as the row lists them', () => {
    // write: PutObject, and aborting a multipart upload it started (generated packages stream in parts);
    // read of a versioned bucket: also a version by its id (the pinned artefact, decision 302)
    const action = {
      read: ['s3:GetObject'],
      write: ['s3:PutObject', 's3:AbortMultipartUpload'],
      delete: ['s3:DeleteObject'],
      parts: ['s3:ListMultipartUploadParts'],
    };
    for (const route of ROUTES) {
      const s3 = statementsOf(route).filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
      const granted = s3.flatMap((st) =>
        resourcesOf(st).flatMap((r) => actionsOf(st).map((a) => `${JSON.stringify(r)} ${a}`)),
      );
      const expected = Object.entries(route.uses.buckets ?? {}).flatMap(([b, ops]) => [
        ...ops.flatMap((op) =>
          [
            ...action[op],
            ...(op === 'read' && BUCKETS[b as BucketName].versioned ? ['s3:GetObjectVersion'] : []),
          ].map(
            (a) =>
              `${JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(b as BucketName), 'Arn'] }, '/*']] })} ${a}`,
          ),
        ),
        // readers may list, so that a missing key is a 404 and not a 403
        ...(ops.includes('read')
          ? [`${JSON.stringify({ 'Fn::GetAtt': [bucketId(b as BucketName), 'Arn'] })} s3:ListBucket`]
          : []),
      ]);
      expect(granted.sort(), route.id).toEqual(expected.sort());
    }
  });

  it('lets only signing routes call kms:Sign and only the key routes read the public key', () => {
    const signs = (r: (typeof ROUTES)[number]) => r.uses.sign !== undefined && r.uses.sign !== 'publicKey';
    for (const route of ROUTES) {
      expect(allActions(route).has('kms:Sign'), route.id).toBe(signs(route));
      expect(allActions(route).has('kms:GetPublicKey'), route.id).toBe(route.uses.sign !== undefined);
    }
    // the generation workers sign now (decisions 160, 295); no route does
    expect(ROUTES.filter(signs).map((r) => r.id)).toEqual([]);
  });

  it('lets only mail-sending routes call SES, on the sender address and domain identities (and sandbox recipients) only', () => {
    for (const route of ROUTES) {
      const ses = statementsOf(route).filter((st) => actionsOf(st).some((a) => a.startsWith('ses:')));
      expect(ses.length > 0, route.id).toBe(route.uses.mail === true);
      for (const st of ses) {
        expect(actionsOf(st)).toEqual(['ses:SendEmail']);
        const identities = resourcesOf(st).map((r) => /:identity\/([^"]+)"/.exec(JSON.stringify(r))?.[1]);
        // dev (infra/stages.ts) is in the sandbox with example.com as its verified recipients
        expect(identities.sort(), route.id).toEqual(['example.com', 'firmware-portal@example.com']);
      }
    }
  });

  it('lets a function read the token secret only when it builds the identity service', () => {
    const tokenSecret = JSON.stringify({ Ref: s.logicalId(s.stack.signing.tokenSecret) });
    for (const route of ROUTES) {
      const secrets = statementsOf(route)
        .filter((st) => actionsOf(st).includes('secretsmanager:GetSecretValue'))
        .flatMap(resourcesOf)
        .map((r) => JSON.stringify(r));
      expect(secrets.includes(tokenSecret), route.id).toBe(
        route.access !== 'public' || route.uses.tables.includes('users'),
      );
    }
  });

  it('lets every route read the origin-verify secret (to refuse calls that skipped CloudFront), and nothing else of it', () => {
    const originSecret = s.logicalId(s.stack.signing.originVerifySecret);
    const tokenSecret = s.logicalId(s.stack.signing.tokenSecret);
    // these also trust the viewer address it proves, for their per-client limits
    const withLimits = ROUTES.filter((r) => r.uses.clientSource).map((r) => r.id);
    expect(withLimits.sort()).toEqual([
      'adminDecideCompanyLinks',
      'adminDecidePasskeyRemoval',
      'changePassword',
      'companySignOnCallback',
      'confirmEmail',
      'linkCompanyIdentity',
      'login',
      'loginPasskey',
      'passkeyRegistrationOptions',
      'register',
      'removePasskey',
      'resetPassword',
      'startCompanyReauth',
      'startCompanySignOn',
    ]);
    for (const route of ROUTES) {
      const secrets = statementsOf(route)
        .filter((st) => actionsOf(st).includes('secretsmanager:GetSecretValue'))
        .flatMap(resourcesOf);
      expect(
        secrets.some((r) => JSON.stringify(r) === JSON.stringify({ Ref: originSecret })),
        route.id,
      ).toBe(true);
      for (const r of secrets)
        expect([{ Ref: originSecret }, { Ref: tokenSecret }], route.id).toContainEqual(r);
      for (const st of statementsOf(route).filter((x) =>
        resourcesOf(x).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: originSecret })),
      ))
        expect(actionsOf(st), route.id).toEqual(['secretsmanager:GetSecretValue']);
    }
  });

  it('attaches AWS managed policies only to the API Gateway logging role and the CDK deployment helper', () => {
    const withManaged = resources('AWS::IAM::Role').filter(([, r]) => r.ManagedPolicyArns !== undefined);
    const aws = withManaged.filter(([, r]) =>
      JSON.stringify(r.ManagedPolicyArns).includes(':iam::aws:policy/'),
    );
    expect(aws.map(([id]) => id).sort()).toEqual([
      expect.stringMatching(/^ApiGatewayCloudWatchRole/),
      expect.stringMatching(/^CustomCDKBucketDeployment/),
    ]);
    // the only other role with a managed policy is the auditors', with their own policy
    expect(withManaged.filter((r) => !aws.includes(r)).map(([id]) => id)).toEqual([
      s.logicalId(s.stack.auditors.role),
    ]);
  });

  it('has wildcards outside the route roles only in the CDK deployment helper’s policy (and the workers’ stream and object grants)', () => {
    const routeRoles = new Set(
      [...routeFunctions().values()].map(([, f]) => (f.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]),
    );
    for (const [id, p] of resources('AWS::IAM::Policy')) {
      if ((p.Roles as Json[]).every((r) => routeRoles.has(r.Ref as string))) continue;
      const wild = (p.PolicyDocument as { Statement: Statement[] }).Statement.filter((x) => !isXray(x));
      if (!JSON.stringify(wild).includes('*')) continue;
      if (id.startsWith('Generation')) {
        // the generation worker's objects: packages/<id>/… in the artefacts bucket, and resources it reads
        for (const st of wild.filter((x) => JSON.stringify(x.Resource).includes('*')))
          expect(
            [bucketId('artefacts'), bucketId('resources')].some((b) =>
              JSON.stringify(st.Resource).includes(`"${b}"`),
            ),
            id,
          ).toBe(true);
        continue;
      }
      if (id.startsWith('Workers')) {
        // a worker's wildcards: ListStreams (no resource-level permissions) and the audit bucket's objects
        for (const st of wild.filter((x) => JSON.stringify(x.Resource).includes('*'))) {
          // CDK merges statements on the same resource: ListStreams shares `*` with X-Ray's two actions
          if (st.Resource === '*') {
            const [xray, rest] = [
              actionsOf(st).filter((a) => a.startsWith('xray:')),
              actionsOf(st).filter((a) => !a.startsWith('xray:')),
            ];
            expect(rest, id).toEqual(['dynamodb:ListStreams']);
            for (const a of xray)
              expect(['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], id).toContain(a);
          } else expect(JSON.stringify(st.Resource), id).toContain(`"${bucketId('audit')}"`);
        }
        continue;
      }
      expect(id).toMatch(/^CustomCDKBucketDeployment/);
    }
  });
});

describe('DynamoDB', () => {
  it('creates every table of the definitions with PITR, deletion protection and its indexes', () => {
    s.template.resourceCountIs('AWS::DynamoDB::Table', Object.keys(TABLES).length);
    for (const [name, def] of Object.entries(TABLES) as [TableName, (typeof TABLES)[TableName]][]) {
      const table = s.json.Resources[tableId(name)]!;
      const props = table.Properties as Json;
      expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(props.DeletionProtectionEnabled, name).toBe(true);
      expect(table.DeletionPolicy, name).toBe('RetainExceptOnCreate');
      expect(table.UpdateReplacePolicy, name).toBe('Retain');
      const indexes = ((props.GlobalSecondaryIndexes as Json[] | undefined) ?? []).map((i) => i.IndexName);
      expect(indexes.sort(), name).toEqual(def.indexes.map((i) => i.name).sort());
      if (def.ttlAttribute)
        expect(props.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
    }
  });
});

describe('outputs', () => {
  it('names the users and audit tables for npm run admin:create', () => {
    s.template.hasOutput('UsersTableName', { Value: { Ref: tableId('users') } });
    s.template.hasOutput('AuditTableName', { Value: { Ref: tableId('audit') } });
  });
});

describe('S3', () => {
  it('keeps every bucket private, encrypted, TLS 1.2+ only', () => {
    const buckets = resources('AWS::S3::Bucket');
    // + web site, + access logs, + the signing trail's bucket
    expect(buckets).toHaveLength(Object.keys(BUCKETS).length + 3);
    for (const [id, b] of buckets) {
      expect(b.BucketEncryption, id).toBeDefined();
      expect(b.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      const policy = resources('AWS::S3::BucketPolicy').find(
        ([, p]) => JSON.stringify(p.Bucket) === `{"Ref":"${id}"}`,
      );
      expect(policy, `policy of ${id}`).toBeDefined();
      const text = JSON.stringify(policy![1].PolicyDocument);
      expect(text, id).toContain('"aws:SecureTransport":"false"');
      expect(text, id).toContain('"s3:TlsVersion":1.2');
    }
  });

  it('versions the artefacts and locks the audit bucket in compliance mode for the default retention', () => {
    for (const [name, def] of Object.entries(BUCKETS) as [BucketName, (typeof BUCKETS)[BucketName]][]) {
      const props = s.json.Resources[bucketId(name)]!.Properties as Json;
      expect((props.VersioningConfiguration as Json | undefined) ?? { Status: 'Suspended' }, name).toEqual({
        Status: def.versioned ? 'Enabled' : 'Suspended',
      });
      if (def.objectLock) {
        expect(props.ObjectLockEnabled).toBe(true);
        expect(props.ObjectLockConfiguration).toEqual({
          ObjectLockEnabled: 'Enabled',
          Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 2557 } },
        });
        expect(s.json.Resources[bucketId(name)]!.DeletionPolicy).toBe('RetainExceptOnCreate');
      } else expect(props.ObjectLockEnabled, name).toBeUndefined();
    }
    expect(BUCKETS.artefacts.versioned).toBe(true);
    expect(BUCKETS.audit.objectLock).toBe(true);
  });

  it('logs access of every bucket into the access-log bucket', () => {
    const logs = s.logicalId(s.stack.data.accessLogs);
    for (const [id, b] of resources('AWS::S3::Bucket'))
      if (id !== logs)
        expect(b.LoggingConfiguration, id).toMatchObject({ DestinationBucketName: { Ref: logs } });
  });

  it('expires unconfirmed presigned uploads under staging/ after a day', () => {
    const rules = (s.json.Resources[bucketId('resources')]!.Properties as Json).LifecycleConfiguration as {
      Rules: Json[];
    };
    expect(rules.Rules).toContainEqual(
      expect.objectContaining({ Prefix: 'staging/', ExpirationInDays: 1, Status: 'Enabled' }),
    );
  });

  it('opens CORS only for presigned PUTs to resources and presigned GETs of artefacts, from the portal origin', () => {
    const withCors = resources('AWS::S3::Bucket').filter(([, b]) => b.CorsConfiguration !== undefined);
    expect(withCors.map(([id]) => id).sort()).toEqual([bucketId('artefacts'), bucketId('resources')].sort());
    const rulesOf = (id: string) =>
      (withCors.find(([x]) => x === id)![1].CorsConfiguration as { CorsRules: Json[] }).CorsRules;
    for (const [id, method] of [
      [bucketId('resources'), 'PUT'],
      [bucketId('artefacts'), 'GET'],
    ] as const) {
      const rules = rulesOf(id);
      expect(rules).toHaveLength(1);
      expect(rules[0]!.AllowedMethods).toEqual([method]);
      // no custom domain: the CloudFront domain, and nothing else
      expect(rules[0]!.AllowedOrigins).toEqual([
        {
          'Fn::Join': [
            '',
            ['https://', { 'Fn::GetAtt': [s.logicalId(s.stack.web.distribution), 'DomainName'] }],
          ],
        },
      ]);
    }
  });
});

describe('CloudFront', () => {
  const distribution = () =>
    (s.json.Resources[s.logicalId(s.stack.web.distribution)]!.Properties as Json).DistributionConfig as Json;

  it('serves the SPA from S3 through origin access control, never an OAI or a public bucket', () => {
    s.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    const dc = distribution();
    const site = s.logicalId(s.stack.web.bucket);
    const s3Origin = (dc.Origins as Json[]).find((o) => JSON.stringify(o.DomainName).includes(site))!;
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(dc.DefaultRootObject).toBe('index.html');
    const sitePolicy = resources('AWS::S3::BucketPolicy').find(
      ([, p]) => JSON.stringify(p.Bucket) === `{"Ref":"${site}"}`,
    )!;
    const statements = (sitePolicy[1].PolicyDocument as { Statement: Json[] }).Statement;
    const allows = statements.filter((st) => st.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Action: 's3:GetObject',
      Principal: { Service: 'cloudfront.amazonaws.com' },
    });
    expect(JSON.stringify(allows[0]!.Condition)).toContain(
      `"Ref":"${s.logicalId(s.stack.web.distribution)}"`,
    );
  });

  it('routes /dev/* to the API uncached, with no origin path so /dev/x reaches stage dev as /x (not /dev/dev/x)', () => {
    const dc = distribution();
    const behaviors = dc.CacheBehaviors as Json[];
    expect(behaviors).toHaveLength(1);
    const api = behaviors[0]!;
    expect(api.PathPattern).toBe(`/${API_STAGE}/*`);
    // own policies (they forward CloudFront-Viewer-Address): asserted in the test below
    expect(api.CachePolicyId).toEqual({ Ref: expect.stringMatching(/ApiNoCache/) });
    expect(api.OriginRequestPolicyId).toEqual({ Ref: expect.stringMatching(/ApiOriginRequests/) });
    expect(api.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    expect(api.ViewerProtocolPolicy).toBe('https-only');
    const origin = (dc.Origins as Json[]).find((o) => o.Id === api.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain(
      `{"Ref":"${s.logicalId(s.stack.api.restApi)}"},".execute-api."`,
    );
    expect(origin.OriginPath ?? '').toBe('');
    expect(origin.CustomOriginConfig).toEqual({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
  });

  it('sends the API the viewer address and a secret origin header, never Host, and caches nothing', () => {
    const dc = distribution();
    const api = (dc.CacheBehaviors as Json[])[0]!;
    const orp = s.json.Resources[(api.OriginRequestPolicyId as { Ref: string }).Ref]!.Properties as Json;
    const orpConfig = orp.OriginRequestPolicyConfig as Json;
    const headers = orpConfig.HeadersConfig as { HeaderBehavior: string; Headers: string[] };
    // a list, not "all viewer headers": that form cannot add CloudFront's own headers without Host
    expect(headers.HeaderBehavior).toBe('whitelist');
    expect(headers.Headers).toContain('CloudFront-Viewer-Address');
    expect(headers.Headers.map((h) => h.toLowerCase())).not.toContain('host');
    expect(headers.Headers.map((h) => h.toLowerCase())).not.toContain('x-forwarded-for');
    expect(headers.Headers).toEqual(expect.arrayContaining(['Content-Type', 'Accept']));
    expect(orpConfig.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    expect(orpConfig.CookiesConfig).toEqual({ CookieBehavior: 'all' });

    const cache = s.json.Resources[(api.CachePolicyId as { Ref: string }).Ref]!.Properties as Json;
    const cacheConfig = cache.CachePolicyConfig as Json;
    // Authorization reaches the API through the cache key; nothing is kept (TTL 0, answers say no-store)
    expect(cacheConfig.DefaultTTL).toBe(0);
    expect(cacheConfig.MinTTL).toBe(0);
    expect(cacheConfig.MaxTTL).toBeLessThanOrEqual(1);
    const key = cacheConfig.ParametersInCacheKeyAndForwardedToOrigin as Json;
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: ['Authorization'] });

    const origin = (dc.Origins as Json[]).find((o) => o.Id === api.TargetOriginId)!;
    const custom = origin.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];
    expect(custom.map((h) => h.HeaderName)).toEqual(['X-Frp-Origin-Verify']);
    // a dynamic reference to the generated secret, resolved by CloudFormation: no value in the template
    const value = JSON.stringify(custom[0]!.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(s.logicalId(s.stack.signing.originVerifySecret));
  });

  it('compresses the API answers: the behaviour compresses and its cache policy keys on gzip and brotli', () => {
    const dc = distribution();
    const api = (dc.CacheBehaviors as Json[])[0]!;
    expect(api.Compress).toBe(true);
    const cache = s.json.Resources[(api.CachePolicyId as { Ref: string }).Ref]!.Properties as Json;
    const key = (cache.CachePolicyConfig as Json).ParametersInCacheKeyAndForwardedToOrigin as Json;
    expect(key.EnableAcceptEncodingGzip).toBe(true);
    expect(key.EnableAcceptEncodingBrotli).toBe(true);
    // compression needs TTLs that are not all 0 (CloudFront refuses Accept-Encoding keys when caching is off)
    expect((cache.CachePolicyConfig as Json).MaxTTL).toBeGreaterThan(0);
    // and the SPA's files too
    expect((dc.DefaultCacheBehavior as Json).Compress).toBe(true);
  });

  it('falls back to index.html for client-side routes without touching files or the API', async () => {
    const { SPA_FALLBACK } = await import('../lib/constructs/web');
    const handler = new Function(`${SPA_FALLBACK}; return handler;`)() as (e: Json) => { uri: string };
    const uri = (u: string) => handler({ request: { uri: u } }).uri;
    expect(uri('/packages/42')).toBe('/index.html');
    expect(uri('/')).toBe('/index.html');
    expect(uri('/assets/index-3f2a.js')).toBe('/assets/index-3f2a.js');
    expect(uri('/favicon.svg')).toBe('/favicon.svg');
    expect(distribution().CustomErrorResponses).toBeUndefined(); // they would rewrite the API's 403/404 too
  });

  it('sends the security headers of shared/api/runtime.ts on the SPA and the API', () => {
    const policyId = s.logicalId(s.stack.web.node.findChild('SecurityHeaders'));
    const dc = distribution();
    expect((dc.DefaultCacheBehavior as Json).ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect((dc.CacheBehaviors as Json[])[0]!.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const cfg = ((s.json.Resources[policyId]!.Properties as Json).ResponseHeadersPolicyConfig as Json)
      .SecurityHeadersConfig as Json;
    expect(cfg.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 63072000,
      IncludeSubdomains: true,
      Preload: false,
      Override: true,
    });
    expect(SECURITY_HEADERS['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    expect(cfg.FrameOptions).toEqual({ FrameOption: SECURITY_HEADERS['X-Frame-Options'], Override: true });
    expect(cfg.ContentTypeOptions).toEqual({ Override: true });
    expect(cfg.ReferrerPolicy).toEqual({
      ReferrerPolicy: SECURITY_HEADERS['Referrer-Policy'],
      Override: true,
    });
    const csp = JSON.stringify((cfg.ContentSecurityPolicy as Json).ContentSecurityPolicy);
    // Every directive as in runtime.ts; connect-src extended with the presigned-URL bucket hosts.
    for (const directive of SECURITY_HEADERS['Content-Security-Policy']!.split(';').map((d) => d.trim()))
      expect(csp, directive).toContain(
        directive.startsWith('connect-src') ? `${directive} https://frp-dev-` : directive,
      );
    expect(csp).toContain('frp-dev-resources-');
    expect(csp).toContain('frp-dev-artefacts-');
  });

  it('uses the default certificate without a domain, acknowledged as CFR4, and logs viewer requests', () => {
    const dc = distribution();
    expect(dc.ViewerCertificate).toBeUndefined();
    expect(s.acknowledgements.map((a) => a.id)).toContain('AwsSolutions-CFR4');
    expect(dc.Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });

  it('deploys the SPA with BucketDeployment and flushes the CDN', () => {
    s.template.resourceCountIs('Custom::CDKBucketDeployment', 2);
    s.template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: s.logicalId(s.stack.web.bucket) },
      DistributionId: { Ref: s.logicalId(s.stack.web.distribution) },
      DistributionPaths: ['/*'],
    });
  });
});

describe('mail, signing key, token secret', () => {
  it('creates the sender domain identity with Easy DKIM and prints its three records', () => {
    s.template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'example.com',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
    });
    const identity = s.logicalId(s.stack.mail.identity!);
    for (const n of [1, 2, 3]) {
      const out = s.json.Outputs?.[`DkimRecord${n}`];
      expect(JSON.stringify(out?.Value), `DkimRecord${n}`).toContain(`"${identity}","DkimDNSTokenName${n}"`);
      expect(JSON.stringify(out?.Value)).toContain('CNAME');
    }
  });

  it('signs packages with an asymmetric ECC_NIST_P256 SIGN_VERIFY key that outlives the stack', () => {
    s.template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }),
      DeletionPolicy: 'RetainExceptOnCreate',
    });
  });

  it('keeps the token key in a generated Secrets Manager secret', () => {
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports zero unacknowledged findings', () => {
    expect(s.nagViolations.map((v) => `${v.ruleName} at ${v.violatingConstructs[0]?.constructPath}`)).toEqual(
      [],
    );
    expect(s.synthError).toBeUndefined();
  });

  it('acknowledges only the reviewed rules, each with a reason', () => {
    const reviewed =
      /^AwsSolutions-(S1|SMG4|SNS2|APIG4|COG4|L1|CFR1|CFR3|CFR4|SQS3|IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/(AmazonAPIGatewayPushToCloudWatchLogs|AWSLambdaBasicExecutionRole)\]|IAM5\[.+\])$/;
    expect(s.acknowledgements.length).toBeGreaterThan(0);
    for (const a of s.acknowledgements) {
      expect(a.id, a.path).toMatch(reviewed);
      expect(a.reason.length, `${a.id} at ${a.path}`).toBeGreaterThan(60);
      // On route roles (in the route stacks, decision 202), wildcards are acknowledged only for the objects
      // of one named bucket, passed in as the parameter CDK makes for the bucket's ARN.
      // X-Ray's write actions have no resource-level permissions (decision 312): `*`, for that alone.
      if (
        Object.keys(ROUTE_STACKS).some((n) => a.path.startsWith(`${s.stack.stackName}/${n}/`)) &&
        a.id.startsWith('AwsSolutions-IAM5')
      ) {
        if (a.id === 'AwsSolutions-IAM5[Resource::*]')
          expect(a.reason).toMatch(/^Route \w+: xray:PutTraceSegments/);
        else expect(a.id).toMatch(/^AwsSolutions-IAM5\[Resource::<referenceto\w+Data\w+Bucket\w+Arn>\/\*\]$/);
      }
    }
  });
});

describe('a failed first deploy can be retried', () => {
  const STATEFUL = [
    'AWS::DynamoDB::Table',
    'AWS::S3::Bucket',
    'AWS::KMS::Key',
    'AWS::SecretsManager::Secret',
    'AWS::Logs::LogGroup',
  ];

  it('keeps every stateful resource on delete and replacement, but not when the first create rolls back', () => {
    const stateful = Object.entries(s.json.Resources).filter(([, r]) => STATEFUL.includes(r.Type));
    // tables, 3 data buckets + site + access logs, key, secret, one log group per route + access logs
    expect(stateful.length).toBeGreaterThan(ROUTES.length + 8);
    for (const [id, r] of stateful) {
      expect(r.DeletionPolicy, id).toBe('RetainExceptOnCreate');
      expect(r.UpdateReplacePolicy, id).toBe('Retain');
    }
  });

  it('leaves no plain Retain anywhere (a rolled-back create would leave it behind)', () => {
    for (const [id, r] of Object.entries(s.json.Resources)) expect(r.DeletionPolicy, id).not.toBe('Retain');
  });
});

describe('auditors', () => {
  const roleId = () => s.logicalId(s.stack.auditors.role);
  const policyId = () => s.logicalId(s.stack.auditors.policy);

  it('grants exactly: read and list object versions of the artefacts and audit buckets, the signing public key, reading the audit table and the stack outputs, and the pinned SBOMs', () => {
    const policy = s.json.Resources[policyId()]!;
    expect(policy.Type).toBe('AWS::IAM::ManagedPolicy');
    const doc = (policy.Properties as Json).PolicyDocument as { Statement: Json[] };
    const arn = (b: BucketName) => ({ 'Fn::GetAtt': [bucketId(b), 'Arn'] });
    const objects = (b: BucketName) => ({ 'Fn::Join': ['', [arn(b), '/*']] });
    expect(doc.Statement).toEqual([
      {
        Sid: 'ReadObjectVersions',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:GetObjectVersion'],
        Resource: [objects('artefacts'), objects('audit')],
      },
      {
        Sid: 'ListObjectVersions',
        Effect: 'Allow',
        Action: ['s3:ListBucket', 's3:ListBucketVersions'],
        Resource: [arn('artefacts'), arn('audit')],
      },
      {
        Sid: 'ReadSigningPublicKey',
        Effect: 'Allow',
        Action: 'kms:GetPublicKey',
        Resource: { 'Fn::GetAtt': [s.logicalId(s.stack.signing.packageKey), 'Arn'] },
      },
      {
        Sid: 'ReadAuditTable',
        Effect: 'Allow',
        Action: ['dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'],
        Resource: { 'Fn::GetAtt': [s.logicalId(s.stack.data.tables.audit), 'Arn'] },
      },
      {
        Sid: 'ReadStackOutputs',
        Effect: 'Allow',
        Action: 'cloudformation:DescribeStacks',
        Resource: { Ref: 'AWS::StackId' },
      },
      {
        Sid: 'ReadPinnedSboms',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:GetObjectVersion'],
        Resource: { 'Fn::Join': ['', [arn('resources'), '/sbom/*']] },
      },
    ]);
  });

  it('needs no kms:Decrypt: the buckets it reads use S3-managed encryption', () => {
    for (const b of ['artefacts', 'audit', 'resources'] as const) {
      const enc = (s.json.Resources[bucketId(b)]!.Properties as Json).BucketEncryption;
      expect(JSON.stringify(enc), b).toContain('"SSEAlgorithm":"AES256"');
    }
  });

  it('is a role of this account with that policy only and no inline policy, and the stack outputs its ARN', () => {
    const role = s.json.Resources[roleId()]!.Properties as Json;
    expect(role.ManagedPolicyArns).toEqual([{ Ref: policyId() }]);
    expect(JSON.stringify(role.AssumeRolePolicyDocument)).toContain(':root');
    expect(
      resources('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Roles).includes(roleId())),
    ).toEqual([]);
    s.template.hasOutput('AuditorRoleArn', { Value: { 'Fn::GetAtt': [roleId(), 'Arn'] } });
    s.template.hasOutput('AuditorPolicyArn', { Value: { Ref: policyId() } });
  });
});

describe('site settings for the footer', () => {
  it('writes config.json next to the SPA (with index.html, revalidated on every load) with the default settings', () => {
    // and the stage's approval policy, which the SPA's turns follow (decision 338)
    expect(deployedSiteSettings(s)).toEqual({
      ...DEFAULT_SITE_SETTINGS,
      approvalPolicy: DEFAULT_APPROVAL_POLICY,
    });
  });
});
