import { Fn } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_STAGE } from '../../../shared/api/routes';
import { API_ERR } from '../../../shared/messages';
import type { PortalConfig } from '../portal-config';

/** CloudFront takes web ACLs of scope CLOUDFRONT only, and those live in us-east-1 alone. */
export const EDGE_REGION = 'us-east-1';

/** The output of the edge stack (infra/lib/edge-stack.ts) the portal stack reads (decision 305). */
export const WEB_ACL_OUTPUT = 'WebAclArn';

/** Name of a stage's edge stack: deployed by the same `npm run deploy`, before the portal stack. */
export const edgeStackName = (stage: string): string => `FirmwareReleasePortal-${stage}-edge`;

export interface EdgeProps {
  config: PortalConfig;
  distribution: cloudfront.Distribution;
}

/**
 * Per client address (the viewer IP CloudFront sees), requests in any 5 minutes before WAF answers 429:
 * the public identity calls each on their own budget, and the API as a whole, so one client cannot use
 * up the stage throttle (50 req/s shared by everyone) and push sign-in into 429 for all.
 */
export const EDGE_RATE_LIMITS = [
  { name: 'SignIn', path: `/${API_STAGE}/user/login`, limit: 100 },
  { name: 'Register', path: `/${API_STAGE}/user/register`, limit: 20 },
  { name: 'ResetPassword', path: `/${API_STAGE}/user/reset-password`, limit: 20 },
] as const;
/** every API call from one address (10 req/s on average over 5 minutes; the SPA itself is not counted) */
export const EDGE_API_LIMIT = 3000;

/** AWS managed rule groups on every request, and rules of theirs that only count (with why). */
export const MANAGED_RULE_GROUPS = [
  {
    name: 'AWSManagedRulesAmazonIpReputationList',
    countOnly: [] as string[],
  },
  {
    name: 'AWSManagedRulesCommonRuleSet',
    // patch and model uploads through the API are multipart bodies above 8 KB; the handlers cap sizes
    countOnly: ['SizeRestrictions_BODY'],
  },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] as string[] },
] as const;

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** The name of a stage's CloudFront web ACL (the dashboard's WAF graph names it). */
export const edgeWebAclName = (stage: string): string => `frp-${stage}-edge`;

/**
 * AWS WAF in front of the portal (docs/decisions/207): the distribution's web ACL of scope CLOUDFRONT, with
 * per-address rate limits on sign-in, registration and password reset (and on the API as a whole) and AWS
 * managed rule groups. The rate limits answer 429 with `{ errorMessage }` like the API (the managed
 * groups' blocks are WAF's plain 403). A CLOUDFRONT web ACL can only be created in us-east-1, so the app's
 * edge stack makes it there (infra/lib/edge-stack.ts) and this construct reads its ARN from that stack's
 * output when CloudFormation deploys the portal (Fn::GetStackOutput, decision 305), in any region; the
 * stage setting `webAclArn` names another existing ACL instead.
 */
export class Edge extends Construct {
  /** the web ACL attached to the distribution */
  readonly webAclArn: string;
  /** its name, for the dashboard's WAF metrics (dimension WebACL) */
  readonly webAclName: string;
  /** false when the stage names its own ACL (webAclArn) instead of the edge stack's */
  readonly fromEdgeStack: boolean;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { config, distribution } = props;
    this.fromEdgeStack = config.webAclArn === undefined;
    if (config.webAclArn) {
      this.webAclArn = config.webAclArn;
      // arn:…:global/webacl/<name>/<id>
      this.webAclName = config.webAclArn.split('/').at(-2) ?? '';
    } else {
      this.webAclArn = Fn.getStackOutput(edgeStackName(config.stage), WEB_ACL_OUTPUT, EDGE_REGION);
      this.webAclName = edgeWebAclName(config.stage);
    }
    distribution.attachWebAclId(this.webAclArn);
  }
}

/** The CloudFront web ACL the edge stack creates (exported for the tests). */
export function webAclProps(stage: string): wafv2.CfnWebACLProps {
  const json = (errorMessage: string) => JSON.stringify({ errorMessage });
  let priority = 0;
  const rateRules: wafv2.CfnWebACL.RuleProperty[] = [
    ...EDGE_RATE_LIMITS.map(({ name, path, limit }) => ({
      name: `RateLimit${name}`,
      priority: priority++,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'tooMany' } } },
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: 300,
          aggregateKeyType: 'IP',
          scopeDownStatement: {
            byteMatchStatement: {
              fieldToMatch: { uriPath: {} },
              positionalConstraint: 'EXACTLY',
              searchString: path,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
        },
      },
      visibilityConfig: visibility(`frp-${stage}-rate-${name}`),
    })),
    {
      name: 'RateLimitApi',
      priority: priority++,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'tooMany' } } },
      statement: {
        rateBasedStatement: {
          limit: EDGE_API_LIMIT,
          evaluationWindowSec: 300,
          aggregateKeyType: 'IP',
          scopeDownStatement: {
            byteMatchStatement: {
              fieldToMatch: { uriPath: {} },
              positionalConstraint: 'STARTS_WITH',
              searchString: `/${API_STAGE}/`,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
        },
      },
      visibilityConfig: visibility(`frp-${stage}-rate-api`),
    },
  ];
  const managed: wafv2.CfnWebACL.RuleProperty[] = MANAGED_RULE_GROUPS.map((g) => ({
    name: g.name,
    priority: priority++,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: g.name,
        ruleActionOverrides:
          g.countOnly.length > 0
            ? g.countOnly.map((name) => ({ name, actionToUse: { count: {} } }))
            : undefined,
      },
    },
    visibilityConfig: visibility(`frp-${stage}-${g.name}`),
  }));
  return {
    name: edgeWebAclName(stage),
    // WAF descriptions take no parentheses
    description: `Firmware Release Portal ${stage} - rate limits per address and AWS managed rules`,
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    customResponseBodies: {
      tooMany: { contentType: 'APPLICATION_JSON', content: json(API_ERR.tooManyFromAddress) },
    },
    rules: [...rateRules, ...managed],
    visibilityConfig: visibility(`frp-${stage}-edge`),
  };
}
