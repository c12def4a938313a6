import { join } from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  type NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_STAGE, handlerFile, ROUTES, type Route } from '../../../shared/api/routes';
import { BINARY_MEDIA_TYPES } from '../../../shared/api/runtime';
import { ORIGIN_VERIFY_REQUIRED_ENV } from '../../../shared/domain/client-source';
import { bundleAssetHash } from '../bundle-hash';
import { type PortalConfig, REPO_ROOT } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';
import type { Data } from './data';
import { usesFunction } from './grant-uses';
import type { Mail } from './mail';
import type { Signing } from './signing';

export interface ApiProps {
  config: PortalConfig;
  data: Data;
  signing: Signing;
  mail: Mail;
  /** the asynchronous workers routes invoke (`uses.invoke`; infra/lib/constructs/generation.ts) */
  asyncWorkers?: ReadonlyMap<string, lambda.IFunction>;
}

/** One place for the runtime, so a bump (and the L1 acknowledgement below) is one edit. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * Just below API Gateway's 29 s integration limit: the Lambda stops (and logs why) before the gateway
 * gives up, and the slow routes (confirming a large upload, signing) keep as much time as possible.
 */
export const LAMBDA_TIMEOUT = Duration.seconds(28);

/** Memory of a route that does not ask for more (CPU scales with it; 512 keeps cold starts short). */
export const DEFAULT_MEMORY_MB = 512;

/** Stage-wide throttle: far above what a team of engineers clicks, low enough to cap a runaway client. */
export const THROTTLE = { rateLimit: 50, burstLimit: 100 };

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Rows whose handler builds the identity service, which needs the token key (all but the public-key route). */
export const needsTokenSecret = (r: Route): boolean =>
  r.access !== 'public' || r.uses.tables.includes('users');

/** GET rows get read-only data actions: a GET that writes would be a bug (docs/decisions/011). */
export const isReadOnly = (r: Route): boolean => r.method === 'GET';

/**
 * The REST API (stage `dev`) and one Lambda per row of the route table. Nothing here names a route:
 * adding a row to shared/api/routes.ts adds its function, method and grants.
 */
export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  /** route id → its function */
  readonly functions = new Map<string, NodejsFunction>();
  private readonly mailFunctions: NodejsFunction[] = [];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;
    const removalPolicy = statefulRemovalPolicy(config);

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy,
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: `frp-${config.stage}`,
      description: `Firmware Release Portal API (${config.stage}); served to browsers through CloudFront at /dev/*`,
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      // Execution logs need the account-wide API Gateway CloudWatch role; kept on stack deletion
      // because other APIs in the account may rely on the same setting (docs/infra.md), but removed
      // when the first create rolls back.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      deployOptions: {
        stageName: API_STAGE,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigw.AccessLogFormat.jsonWithStandardFields({
          caller: false,
          httpMethod: true,
          ip: true,
          protocol: true,
          requestTime: true,
          resourcePath: true,
          responseLength: true,
          status: true,
          user: false,
        }),
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        // Request bodies carry passwords and tokens: never log them.
        dataTraceEnabled: false,
        metricsEnabled: true,
        throttlingRateLimit: THROTTLE.rateLimit,
        throttlingBurstLimit: THROTTLE.burstLimit,
      },
    });

    // Bodies are validated by the route's zod schema inside the handler (the same code runs locally);
    // API Gateway checks that required path parameters are present.
    const validator = this.restApi.addRequestValidator('RequestValidator', {
      requestValidatorName: 'path-parameters-and-body',
      validateRequestParameters: true,
      validateRequestBody: true,
    });

    for (const route of ROUTES) {
      const fn = this.routeFunction(route, props);
      this.functions.set(route.id, fn);
      // rows that mail (directly, or through the outbox: decision 095) put links to the portal in them
      if (route.uses.mail || route.uses.tables.includes('outbox')) this.mailFunctions.push(fn);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      this.restApi.root
        .resourceForPath(route.path)
        .addMethod(route.method, new apigw.LambdaIntegration(fn, { allowTestInvoke: false }), {
          operationName: route.id,
          authorizationType: apigw.AuthorizationType.NONE,
          requestValidator: validator,
          requestParameters: Object.fromEntries(pathParams.map((p) => [`method.request.path.${p}`, true])),
        });
    }

    this.acknowledge();
  }

  /** Mail links point at the portal; its URL is known only once the distribution exists. */
  setAppUrl(appUrl: string): void {
    for (const fn of this.mailFunctions) fn.addEnvironment('APP_URL', appUrl);
  }

  private routeFunction(route: Route, props: ApiProps): NodejsFunction {
    const { config, data, signing, mail, asyncWorkers } = props;
    const tokenSecret = needsTokenSecret(route);
    // every route refuses calls that did not pass CloudFront (lambdas/middleware/origin-verify.ts)
    const environment: Record<string, string> = { API_STAGE, [ORIGIN_VERIFY_REQUIRED_ENV]: 'true' };
    if (tokenSecret && config.tokenTtlSeconds !== undefined)
      environment.TOKEN_TTL_SECONDS = String(config.tokenTtlSeconds);
    if (tokenSecret && config.allowedEmailDomains.length > 0)
      environment.ALLOWED_EMAIL_DOMAINS = config.allowedEmailDomains.join(',');
    return usesFunction(new Construct(this, pascal(route.id)), {
      config,
      code: routeCode(route, config.bundleCache),
      roleDescription: `Lambda of route ${route.id} (${route.method} ${route.path})`,
      description: `${route.method} ${route.path} (${route.id})`,
      memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: LAMBDA_TIMEOUT,
      uses: route.uses,
      targets: { data, signing, mail, asyncWorkers },
      grant: {
        grantee: `Route ${route.id}`,
        readOnly: isReadOnly(route),
        tokenSecret,
        originVerify: true,
        // object ARNs need `/*`: handlers address objects by keys they generate, in that one bucket only
        objectKeysReason: `Route ${route.id} reads or writes objects under keys it generates at run time (ids, versions), so its S3 actions name the objects of this one bucket; the actions themselves are listed one by one (${Object.keys(route.uses.buckets ?? {}).join(', ')}).`,
      },
      environment,
    });
  }

  private acknowledge(): void {
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is the route table: every handler runs the authorize middleware (JWT with a pinned algorithm, token version checked against the users table so logout and deletion revoke at once, roles from the row). The same code runs in the local stack, which has no API Gateway; public rows (login, register, reset, signing key) need no token by design.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'The portal has its own user store (users table, scrypt passwords, self-registration with roles per the product spec) and issues its own tokens; there is no Cognito user pool to attach, and the handlers check every token (see APIG4).',
      },
      {
        id: 'AwsSolutions-L1',
        reason:
          'nodejs22.x is the runtime the handlers are built and tested for (esbuild target node22, CI on Node 20/22); it is supported by Lambda. Moving to nodejs24.x is a one-line change of LAMBDA_RUNTIME once the code is tested on it.',
      },
    );
    Validations.of(this.restApi.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'The stage has no regional web ACL of its own: the web ACL is on CloudFront (infra/lib/constructs/edge.ts, docs/decisions/207), and every route refuses with 403 a call that does not carry the origin-verify secret CloudFront adds (decision 208), so a direct call to this endpoint cannot skip that web ACL.',
    });
    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole)
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level role API Gateway uses to write execution and access logs; AWS maintains this policy for exactly that purpose.',
      });
  }
}

/** The package the SDK clients' runtime configs import for their default credentials… */
export const SDK_CREDENTIAL_CHAIN = '@aws-sdk/credential-provider-node';
/** …and what the Lambda bundles import instead: environment credentials only. */
export const CREDENTIALS_FROM_ENV = join(REPO_ROOT, 'lambdas', 'adapters', 'credentials-from-env.ts');

/**
 * What a route's code is built from and runs on: entry, runtime, architecture and esbuild settings.
 * Exported so a test can bundle one handler exactly as the stack does.
 */
export function routeCode(route: Route, bundleCache: boolean): NodejsFunctionProps {
  return lambdaCode(join(REPO_ROOT, 'lambdas', 'handlers', `${handlerFile(route.id)}.ts`), bundleCache);
}

/** The code settings of any of the app's Lambdas (routes and stream workers) from its entry file. */
export function lambdaCode(entry: string, bundleCache: boolean): NodejsFunctionProps {
  const bundling: BundlingOptions = {
    format: OutputFormat.ESM,
    target: 'node22',
    minify: true,
    sourceMap: true,
    // Stack traces keep file:line; leaving the sources out halves the bundle.
    sourcesContent: false,
    // Bundle SDK v3: a pinned, tree-shaken copy loads faster than the runtime's and cannot drift.
    externalModules: [],
    mainFields: ['module', 'main'],
    // Some bundled CommonJS dependencies call require() for Node built-ins; ESM has no require.
    banner:
      "import { createRequire as __frpCreateRequire } from 'node:module'; const require = __frpCreateRequire(import.meta.url);",
    // No Docker here or in CI: the esbuild of package.json bundles.
    forceDockerBundling: false,
    // Lambda's credentials are always in its environment: the SDK's full provider chain (SSO, INI, IMDS,
    // STS clients; ~110 KB minified) is dead weight there (docs/decisions/132).
    esbuildArgs: { '--alias': `${SDK_CREDENTIAL_CHAIN}=${CREDENTIALS_FROM_ENV}` },
  };
  return {
    entry,
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    bundling: {
      ...bundling,
      assetHash: bundleCache ? bundleAssetHash(entry, { bundling, runtime: LAMBDA_RUNTIME.name }) : undefined,
    },
  };
}
