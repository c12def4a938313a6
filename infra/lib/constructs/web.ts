import {
  Aws,
  BOOTSTRAP_QUALIFIER_CONTEXT,
  DefaultStackSynthesizer,
  Duration,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_STAGE, type BucketName } from '../../../shared/api/routes';
import { SECURITY_HEADERS, withConnectSources } from '../../../shared/api/runtime';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../../shared/domain/client-source';
import { SITE_SETTINGS_PATH } from '../../../shared/site-settings';
import type { PortalConfig } from '../portal-config';
import { statefulRemovalPolicy } from '../removal';
import { originSecretValue } from './api-guard';
import { accessLogging, BROWSER_BUCKETS, bucketName, FIRST_DEPLOY_LOGGING_REASON } from './data';

export interface WebProps {
  config: PortalConfig;
  restApi: apigw.RestApi;
  accessLogs: s3.IBucket;
  /** the value CloudFront adds to API requests so the API may trust CloudFront-Viewer-Address */
  originVerifySecret: secretsmanager.ISecret;
}

/** Viewer headers the API reads (Authorization travels in the cache key: see apiCachePolicy). */
export const API_VIEWER_HEADERS = ['Accept', 'Content-Type', 'Origin', 'Referer', 'User-Agent'] as const;

/** CloudFront path pattern of the API: the stage name, so the browser calls the API same-origin. */
export const API_PATH_PATTERN = `/${API_STAGE}/*`;

/**
 * Rewrites extension-less paths (client-side routes such as /packages/42) to /index.html. Done here and
 * not with distribution-wide error responses, which would also turn the API's 403/404 JSON into HTML.
 */
export const SPA_FALLBACK = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) request.uri = '/index.html';
  return request;
}`;

/**
 * The SPA bucket, the CloudFront distribution in front of the SPA (S3 through OAC) and the API
 * (`/dev/*` → API Gateway stage `dev`), the security headers, and the deployment of web/dist.
 */
export class Web extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;
  /** https origin the portal is served from (custom domain, else the CloudFront domain) */
  readonly appOrigin: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const { config } = props;

    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      ...accessLogging(config, props.accessLogs, 's3/web/'),
      // Same as the data buckets: CloudFormation cannot delete a non-empty bucket anyway.
      removalPolicy: statefulRemovalPolicy(config),
    });

    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Firmware Release Portal security headers (same values as shared/api/runtime.ts)',
      securityHeadersBehavior: securityHeadersBehavior(browserBucketHosts(config.stage)),
    });

    // Built from the API id only (not restApi.url, which names the stage and so depends on every
    // method and Lambda): the Lambdas' APP_URL and the bucket CORS refer back to this distribution.
    // No origin path: `/dev/x` reaches the origin as `/dev/x`, i.e. stage dev, resource /x.
    const apiOrigin = new origins.HttpOrigin(
      `${props.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        // Proves to the API that a request passed CloudFront, so it may trust CloudFront-Viewer-Address
        // for its per-client limits (a direct call to API Gateway could forge that header). A dynamic
        // reference: the value is resolved by CloudFormation, never written into the template. It is
        // resolved only when the template changes: after a rotation, the deploy names the new version
        // (context originVerifySecretVersion, docs/operations.md), and the API accepts the current and the
        // previous value meanwhile (lambdas/middleware/client-source.ts).
        customHeaders: {
          [ORIGIN_VERIFY_HEADER]: originSecretValue(
            props.originVerifySecret,
            config.originVerifySecretVersion,
          ),
        },
      },
    );

    // What reaches the API (docs/decisions/075-real-client-source.md): the viewer headers it reads, all
    // cookies and query strings, and the viewer's own address, but not Host (API Gateway answers 403 to
    // a Host that is not its own). A policy that lists headers cannot name Authorization, so the cache
    // policy carries it as part of a cache key that never caches: TTL 0 unless the origin says otherwise,
    // and every API answer says no-store.
    const apiOriginRequests = new cloudfront.OriginRequestPolicy(this, 'ApiOriginRequests', {
      comment: 'FRP API: viewer headers the API reads and CloudFront-Viewer-Address; no Host',
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(
        ...API_VIEWER_HEADERS,
        VIEWER_ADDRESS_HEADER,
      ),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.all(),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
    });
    const apiCachePolicy = new cloudfront.CachePolicy(this, 'ApiNoCache', {
      comment: 'FRP API: not cached; Authorization is in the key only so that CloudFront forwards it',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization'),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      // the behaviour's `compress` acts only when the cache policy takes Accept-Encoding into the key:
      // without these two CloudFront passed every JSON answer on uncompressed. Allowed here
      // because the TTLs are not all 0; MinTTL 0 keeps the answers' no-store honoured: nothing is kept.
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const certificate = config.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn)
      : undefined;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Firmware Release Portal (${config.stage})`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'SpaFallback', {
              comment: 'Serve index.html for client-side routes',
              code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
            }),
          },
        ],
      },
      additionalBehaviors: {
        [API_PATH_PATTERN]: {
          origin: apiOrigin,
          // No redirect: a redirected POST would arrive as GET.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCachePolicy,
          originRequestPolicy: apiOriginRequests,
          responseHeadersPolicy: headers,
          compress: true,
        },
      },
      domainNames: config.domainName ? [config.domainName] : undefined,
      certificate,
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      // from the deploy after the first success: logs arriving during a failed create would keep its
      // rollback from deleting the access-log bucket (decision 307)
      ...(config.firstDeployDone
        ? { enableLogging: true, logBucket: props.accessLogs, logFilePrefix: 'cloudfront/' }
        : {}),
    });
    this.appOrigin = `https://${config.domainName ?? this.distribution.distributionDomainName}`;

    this.deploySite(config);
    this.acknowledge(config);
  }

  private deploySite(config: PortalConfig): void {
    // readConfig refuses a missing web/dist unless a test synth asks for the placeholder explicitly
    const source = s3deploy.Source.asset(config.webDir);
    // Hashed bundles first and never pruned: a browser still holding the previous index.html can load
    // its chunks while the new version rolls out.
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      // Deleting the deployment empties the site bucket: when a first create rolls back, CloudFormation
      // deletes the deployments (they depend on the bucket) before the bucket, which is then empty and
      // can go (decision 200). The bucket holds a copy of web/dist only; every deploy writes it again.
      retainOnDelete: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      memoryLimit: 512,
    });
    // Then index.html and the other unhashed files, revalidated on every load, and the CDN flushed.
    // config.json: the deployment's site settings, read by the SPA at startup (decision 094)
    const pages = new s3deploy.BucketDeployment(this, 'DeployPages', {
      sources: [
        source,
        s3deploy.Source.jsonData(SITE_SETTINGS_PATH.slice(1), {
          ...config.site,
          approvalPolicy: config.approvalPolicy,
        }),
      ],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      prune: true,
      retainOnDelete: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    pages.node.addDependency(assets);
  }

  private acknowledge(config: PortalConfig): void {
    if (!config.firstDeployDone)
      Validations.of(this).acknowledge(
        { id: 'AwsSolutions-CFR3', reason: FIRST_DEPLOY_LOGGING_REASON },
        { id: 'AwsSolutions-S1', reason: FIRST_DEPLOY_LOGGING_REASON },
      );
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason:
        'The portal is used by the device company’s engineers wherever they travel; access is controlled by sign-in and roles, not by country.',
    });
    if (!config.certificateArn)
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Only without the domainName/certificateArn context (test stacks): the default *.cloudfront.net certificate has a fixed TLSv1 policy. With a custom domain the distribution requires TLSv1.2_2021; production deploys set one (docs/infra.md).',
      });
    // The CDK-provided Lambda that copies web/dist into the bucket (one per stack).
    const provider = Stack.of(this).node.children.find((c) =>
      c.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (provider) {
      acknowledgeDeploymentProvider(provider, this.bucket);
      // CDK makes the copier's log group with a plain Retain, which a failed first create leaves behind
      const logGroup = provider.node.tryFindChild('LogGroup');
      if (logGroup instanceof logs.LogGroup) logGroup.applyRemovalPolicy(statefulRemovalPolicy(config));
    }
  }
}

/**
 * The S3 hosts the SPA calls with presigned URLs (uploads of resources, downloads of large packages):
 * virtual-hosted and regional as SDK v3 presigns them, plus the legacy global form (us-east-1).
 */
export function browserBucketHosts(stage: string): string[] {
  return BROWSER_BUCKETS.flatMap((b: BucketName) => [
    `https://${bucketName(stage, b)}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`,
    `https://${bucketName(stage, b)}.s3.${Aws.URL_SUFFIX}`,
  ]);
}

/**
 * The response headers of shared/api/runtime.ts as a CloudFront policy. One difference: connect-src also
 * names the presigned-URL bucket hosts, which the SPA reaches with fetch/XHR.
 */
export function securityHeadersBehavior(connectHosts: string[]): cloudfront.ResponseSecurityHeadersBehavior {
  const hsts = SECURITY_HEADERS['Strict-Transport-Security'] ?? '';
  const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1]);
  if (!Number.isInteger(maxAge)) throw new Error(`cannot read max-age from HSTS header '${hsts}'`);
  const frame = SECURITY_HEADERS['X-Frame-Options'];
  return {
    contentSecurityPolicy: {
      contentSecurityPolicy: withConnectSources(
        SECURITY_HEADERS['Content-Security-Policy'] ?? '',
        connectHosts,
      ),
      override: true,
    },
    strictTransportSecurity: {
      accessControlMaxAge: Duration.seconds(maxAge),
      includeSubdomains: /includeSubDomains/i.test(hsts),
      preload: /preload/i.test(hsts),
      override: true,
    },
    frameOptions: {
      frameOption:
        frame === 'SAMEORIGIN'
          ? cloudfront.HeadersFrameOption.SAMEORIGIN
          : cloudfront.HeadersFrameOption.DENY,
      override: true,
    },
    contentTypeOptions: { override: true },
    referrerPolicy: {
      referrerPolicy: SECURITY_HEADERS['Referrer-Policy'] as cloudfront.HeadersReferrerPolicy,
      override: true,
    },
  };
}

/** The CSP helper shared with the local server (shared/api/runtime.ts); the tests import it from here. */
export { withConnectSources };

/** The CDK asset bucket's objects as cdk-nag prints them (pseudo parameters in <>, known values literal). */
function assetBucketObjects(stack: Stack): string {
  const show = (value: string, name: string) => (Token.isUnresolved(value) ? `<AWS::${name}>` : value);
  const qualifier =
    (stack.node.tryGetContext(BOOTSTRAP_QUALIFIER_CONTEXT) as string | undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  return `arn:${show(stack.partition, 'Partition')}:s3:::cdk-${qualifier}-assets-${show(stack.account, 'AccountId')}-${show(stack.region, 'Region')}/*`;
}

function acknowledgeDeploymentProvider(provider: Construct, site: s3.Bucket): void {
  const siteId = Stack.of(site).getLogicalId(site.node.defaultChild as s3.CfnBucket);
  const deployOnly =
    'CDK’s BucketDeployment handler runs only during `cdk deploy` to copy web/dist from the CDK asset bucket into the site bucket; users never invoke it.';
  Validations.of(provider).acknowledge(
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: `${deployOnly} CDK attaches the basic execution role (its own logs) to it.`,
    },
    {
      id: 'AwsSolutions-L1',
      reason: `${deployOnly} Its runtime is chosen by aws-cdk-lib and moves with CDK upgrades.`,
    },
    ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'].map((action) => ({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason: `${deployOnly} CDK grants it read on the asset bucket and sync/prune (${action}) on the site bucket only.`,
    })),
    {
      id: `AwsSolutions-IAM5[Resource::<${siteId}.Arn>/*]`,
      reason: `${deployOnly} It syncs every object of the site bucket (that bucket only).`,
    },
    {
      id: `AwsSolutions-IAM5[Resource::${assetBucketObjects(Stack.of(site))}]`,
      reason: `${deployOnly} It reads the zipped web/dist from the CDK bootstrap asset bucket, whose key is a content hash.`,
    },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: `${deployOnly} cloudfront:CreateInvalidation/GetInvalidation as CDK grants them, to flush the SPA after a deploy; invalidation is harmless and the action list has nothing else.`,
    },
  );
}
