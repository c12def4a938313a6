import { join } from 'node:path';
import { Aws, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  type NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_STAGE, handlerFile, type Route } from '../../../shared/api/routes';
import { BINARY_MEDIA_TYPES } from '../../../shared/api/runtime';
import { ORIGIN_VERIFY_REQUIRED_ENV } from '../../../shared/domain/client-source';
import { bundleAssetHash } from '../bundle-hash';
import { pascal } from '../construct-id';
import { type PortalConfig, REPO_ROOT } from '../portal-config';
import { identityProviderEnv } from '../portal-config-identity';
import { statefulRemovalPolicy } from '../removal';
import { methodThrottles } from './api-guard';
import type { Data } from './data';
import { usesFunction } from './grant-uses';
import type { Mail } from './mail';
import type { Signing } from './signing';

export interface ApiProps {
  config: PortalConfig;
  /** every route the API will have: the stage throttles each method (decision 308) */
  routes: readonly Route[];
}

/** What a group of routes is built from (Api.addRoutes). */
export interface RouteTargets {
  config: PortalConfig;
  data: Data;
  signing: Signing;
  mail: Mail;
  /** the asynchronous workers routes invoke (`uses.invoke`; infra/lib/constructs/generation.ts) */
  asyncWorkers?: ReadonlyMap<string, lambda.IFunction>;
  /** https origin of the portal, for links in mails (APP_URL) */
  appUrl: string;
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

/** Rows whose handler builds the identity service, which needs the token key (all but the public-key route). */
export const needsTokenSecret = (r: Route): boolean =>
  r.access !== 'public' || r.uses.tables.includes('users');

/** GET rows get read-only data actions: a GET that writes would be a bug (docs/decisions/011). */
export const isReadOnly = (r: Route): boolean => r.method === 'GET';

/** The first path segment of a route: the API Gateway resource a group of routes owns (`/packages/{id}` → `packages`). */
export const topSegment = (r: Pick<Route, 'path'>): string => r.path.split('/')[1] ?? '';

/**
 * The REST API (stage `dev`) and one Lambda per row of the route table. Nothing here names a route:
 * adding a row to shared/api/routes.ts adds its function, method and grants.
 *
 * The API itself (RestApi, validator, deployment, stage, access logs) lives in the stack that makes this
 * construct; the routes are added in groups with `addRoutes`, each group into the scope it is given (a
 * nested stack: decision 202). A group owns whole top-level resources (`/user`, `/packages`…): API
 * Gateway resources are never shared between two groups.
 */
export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly stage: apigw.Stage;
  readonly deployment: apigw.Deployment;
  /** route id → its function */
  readonly functions = new Map<string, NodejsFunction>();
  private readonly validator: apigw.RequestValidator;
  private readonly ownedSegments = new Map<string, string>();

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;
    const removalPolicy = statefulRemovalPolicy(config);

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy,
    });

    // `Gateway`, not the former `RestApi`: a stack deployed before the nested-stack split gets a new API
    // whose paths are created in the route stacks, instead of the same paths created twice under one
    // API (API Gateway refuses a second resource with the same path part; decision 202).
    this.restApi = new apigw.RestApi(this, 'Gateway', {
      restApiName: `frp-${config.stage}`,
      description: `Firmware Release Portal API (${config.stage}); served to browsers through CloudFront at /dev/*`,
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      // Execution logs need the account-wide API Gateway CloudWatch role; kept on stack deletion
      // because other APIs in the account may rely on the same setting (docs/infra.md), but removed
      // when the first create rolls back.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      // the deployment and stage are made below: the methods live in nested stacks
      deploy: false,
    });

    // Bodies are validated by the route's zod schema inside the handler (the same code runs locally);
    // API Gateway checks that required path parameters are present.
    this.validator = this.restApi.addRequestValidator('RequestValidator', {
      requestValidatorName: 'path-parameters-and-body',
      validateRequestParameters: true,
      validateRequestBody: true,
    });

    // Every method, in whichever stack, registers with the RestApi and so with this deployment: it
    // depends on them (on their nested stacks) and its logical id hashes them, so a changed or added
    // method makes a new deployment.
    this.deployment = new apigw.Deployment(this, 'Deployment', {
      api: this.restApi,
      description: `Firmware Release Portal API (${config.stage})`,
    });
    this.stage = new apigw.Stage(this, 'Stage', {
      deployment: this.deployment,
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
      methodOptions: methodThrottles(props.routes),
      // X-Ray: the stage's segment, joined by every function's (Tracing.ACTIVE in grant-uses.ts)
      tracingEnabled: true,
    });
    this.restApi.deploymentStage = this.stage;
    // execution logging needs the account's CloudWatch role set first
    const account = this.restApi.node.tryFindChild('Account');
    if (account) this.stage.node.addDependency(account);

    this.acknowledge();
  }

  /**
   * Adds the functions and methods of `routes` in `scope` (a nested stack of the portal stack). Each
   * group owns whole top-level path segments; a segment added by two groups fails the synth.
   */
  addRoutes(scope: Construct, routes: readonly Route[], targets: RouteTargets): void {
    const resources = new Map<string, apigw.IResource>([['', this.restApi.root]]);
    const resourceFor = (path: string): apigw.IResource => {
      const known = resources.get(path);
      if (known) return known;
      const cut = path.lastIndexOf('/');
      const parent = resourceFor(path.slice(0, cut));
      const part = path.slice(cut + 1);
      const id = `Path${path.replace(/\{(\w+)\}/g, 'By$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;
      const resource = new apigw.Resource(scope, id, { parent, pathPart: part });
      resources.set(path, resource);
      return resource;
    };

    for (const route of routes) {
      const segment = topSegment(route);
      const owner = this.ownedSegments.get(segment);
      if (owner !== undefined && owner !== scope.node.path)
        throw new Error(
          `Route ${route.id}: /${segment} is already owned by ${owner}; routes under one top-level path go into one route stack (infra/lib/portal-stack.ts ROUTE_STACKS)`,
        );
      this.ownedSegments.set(segment, scope.node.path);

      const fn = this.routeFunction(scope, route, targets);
      this.functions.set(route.id, fn);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      // A Lambda proxy integration with the invoke permission scoped to this method on stage `dev`.
      // (LambdaIntegration would scope it through the Stage resource, which lives in the parent stack and
      // depends on every method: a cycle between the stacks.)
      new apigw.Method(scope, `${pascal(route.id)}Method`, {
        resource: resourceFor(route.path),
        httpMethod: route.method,
        integration: new apigw.Integration({
          type: apigw.IntegrationType.AWS_PROXY,
          integrationHttpMethod: 'POST',
          uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
        }),
        options: {
          operationName: route.id,
          authorizationType: apigw.AuthorizationType.NONE,
          requestValidator: this.validator,
          requestParameters: Object.fromEntries(pathParams.map((p) => [`method.request.path.${p}`, true])),
        },
      });
      fn.addPermission('ApiPermission', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.restApi.arnForExecuteApi(
          route.method,
          route.path.replace(/\{\w+\}/g, '*'),
          API_STAGE,
        ),
      });
    }
    acknowledgeRouteRules(scope);
  }

  private routeFunction(scope: Construct, route: Route, targets: RouteTargets): NodejsFunction {
    const { config, data, signing, mail, asyncWorkers, appUrl } = targets;
    const tokenSecret = needsTokenSecret(route);
    // every route refuses calls that did not pass CloudFront (lambdas/middleware/origin-verify.ts)
    const environment: Record<string, string> = { API_STAGE, [ORIGIN_VERIFY_REQUIRED_ENV]: 'true' };
    if (tokenSecret && config.tokenTtlSeconds !== undefined)
      environment.TOKEN_TTL_SECONDS = String(config.tokenTtlSeconds);
    if (tokenSecret && config.allowedEmailDomains.length > 0)
      environment.ALLOWED_EMAIL_DOMAINS = config.allowedEmailDomains.join(',');
    // passkeys (decision 322): the relying party is the portal's origin, and every route that may check a
    // signature or a sign-in reads whether the stage requires passkeys; set on every route, so none can
    // fall back to "not required" by a missing variable
    environment.APP_URL = appUrl;
    environment.PASSKEYS_REQUIRED = String(config.requirePasskeys);
    // company sign-on (decision 315): sign-in reads whether it is the only way in, the info row its name,
    // the rows that run it the provider; the client secret is read at run time by its ARN only
    const idp = config.identityProvider;
    if (idp && (tokenSecret || route.id === 'companySignOnInfo'))
      Object.assign(environment, identityProviderEnv(idp));
    const fn = usesFunction(new Construct(scope, pascal(route.id)), {
      config,
      code: routeCode(route, config.bundleCache),
      roleDescription: `Lambda of route ${route.id} (${route.method} ${route.path})`,
      description: `${route.method} ${route.path} (${route.id})`,
      memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: LAMBDA_TIMEOUT,
      uses: route.uses,
      targets: { data, signing, mail, asyncWorkers, appUrl },
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
    if (route.uses.companyIdp) {
      if (!idp) return fn; // no provider on this stage: the rows answer 404
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [idp.clientSecretArn],
        }),
      );
    }
    return fn;
  }

  private acknowledge(): void {
    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole)
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level role API Gateway uses to write execution and access logs; AWS maintains this policy for exactly that purpose.',
      });
  }
}

/** The cdk-nag acknowledgements of a group of routes (methods without API Gateway authorizers, the runtime). */
function acknowledgeRouteRules(scope: Construct): void {
  Validations.of(scope).acknowledge(
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
