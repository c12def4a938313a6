import { SecretValue } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { Route } from '../../../shared/api/routes';
import { ORIGIN_VERIFY_HEADER } from '../../../shared/domain/client-source';
import { API_ERR } from '../../../shared/messages';
import type { PortalConfig } from '../portal-config';

/**
 * Per-method throttles (requests per second, burst) below the stage's 50/100: one caller flooding one
 * route uses up that route's share, never the whole stage. The public identity calls (sign-in,
 * registration, password reset, confirmation) get the smallest share; the WAF at CloudFront also limits
 * them per address (edge.ts).
 */
export const ROUTE_THROTTLE = { rateLimit: 25, burstLimit: 50 };
export const PUBLIC_ROUTE_THROTTLE = { rateLimit: 10, burstLimit: 20 };

/** The throttle of one route's method (decision 308). */
export const routeThrottle = (r: Pick<Route, 'access'>): { rateLimit: number; burstLimit: number } =>
  r.access === 'public' ? PUBLIC_ROUTE_THROTTLE : ROUTE_THROTTLE;

/**
 * The stage's `methodOptions`: one throttle per row of the route table, keyed `/<path>/<METHOD>`. A
 * method's settings replace the stage's `*` ones for that method, so they repeat its logging and metrics.
 */
export function methodThrottles(routes: readonly Route[]): Record<string, apigw.MethodDeploymentOptions> {
  return Object.fromEntries(
    routes.map((r) => {
      const t = routeThrottle(r);
      return [
        `${r.path}/${r.method}`,
        {
          throttlingRateLimit: t.rateLimit,
          throttlingBurstLimit: t.burstLimit,
          loggingLevel: apigw.MethodLoggingLevel.ERROR,
          metricsEnabled: true,
          dataTraceEnabled: false,
        },
      ];
    }),
  );
}

/**
 * The origin-verify value of one secret version as a CloudFormation dynamic reference (resolved at deploy
 * time, never written into the template): the given version, else the current value.
 */
export function originSecretValue(secret: secretsmanager.ISecret, versionId: string | undefined): string {
  return (
    versionId ? SecretValue.secretsManager(secret.secretArn, { versionId }) : secret.secretValue
  ).unsafeUnwrap();
}

export interface ApiGuardProps {
  config: PortalConfig;
  stage: apigw.Stage;
  originVerifySecret: secretsmanager.ISecret;
}

/**
 * The API answers only what passed CloudFront, before any Lambda runs (decision 308): a regional AWS WAF
 * web ACL on the API stage blocks every request whose origin-verify header is not the value CloudFront
 * sends, with the API's own 403 `{ errorMessage }`. A direct execute-api call then spends neither the
 * stage's throttle nor the account's Lambda concurrency. The header value is the secret version CloudFront
 * is given (originVerifySecretVersion, else the current one); during a rotation the previous version is
 * accepted too (originVerifyPreviousSecretVersion), until CloudFront's change reached every edge
 * (docs/operations.md, "Rotating secrets"). The functions keep their own check (decision 208).
 */
export class ApiGuard extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiGuardProps) {
    super(scope, id);
    const { config, stage, originVerifySecret } = props;
    const accepted = [config.originVerifySecretVersion, config.originVerifyPreviousSecretVersion]
      .filter((v, i) => i === 0 || v !== undefined)
      .map((version) => originSecretValue(originVerifySecret, version));
    const matches: wafv2.CfnWebACL.StatementProperty[] = accepted.map((value) => ({
      byteMatchStatement: {
        // WAF matches header names case-insensitively; CloudFront sends it as the origin's custom header
        fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER.toLowerCase() } },
        positionalConstraint: 'EXACTLY',
        searchString: value,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    }));
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      // sampled requests would show the header: the secret stays out of the console
      sampledRequestsEnabled: false,
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `frp-${config.stage}-api`,
      description: `Firmware Release Portal ${config.stage} - API stage answers only requests that passed CloudFront`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        notThroughPortal: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ errorMessage: API_ERR.notThroughPortal }),
        },
      },
      rules: [
        {
          name: 'OnlyThroughCloudFront',
          priority: 0,
          action: {
            block: { customResponse: { responseCode: 403, customResponseBodyKey: 'notThroughPortal' } },
          },
          statement: {
            notStatement: {
              statement: matches.length === 1 ? matches[0]! : { orStatement: { statements: matches } },
            },
          },
          visibilityConfig: visibility(`frp-${config.stage}-api-not-through-portal`),
        },
      ],
      visibilityConfig: visibility(`frp-${config.stage}-api`),
    });
    new wafv2.CfnWebACLAssociation(this, 'OnStage', {
      resourceArn: stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    // the stage ARN is built from the API id and the stage name: make sure the stage exists first
    this.node.addDependency(stage);
  }
}
