import { Aws, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_STAGE } from '../../../shared/api/routes';
import { API_ERR } from '../../../shared/messages';
import { ConfigError, type PortalConfig } from '../portal-config';

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

/**
 * AWS WAF in front of the portal (docs/decisions/207): a web ACL of scope CLOUDFRONT on the distribution,
 * with per-address rate limits on sign-in, registration and password reset (and on the API as a whole)
 * and AWS managed rule groups. The rate limits answer 429 with `{ errorMessage }` like the API (the managed
 * groups' blocks are WAF's plain 403). A CLOUDFRONT web ACL can only
 * be created in us-east-1: outside it, config `webAclArn` names one made there (docs/infra.md), and a
 * template rule refuses to deploy this stack elsewhere without it.
 */
export class Edge extends Construct {
  /** the web ACL attached to the distribution (created here or the configured one) */
  readonly webAclArn: string;
  readonly webAcl?: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { config, distribution } = props;
    if (config.webAclArn) {
      this.webAclArn = config.webAclArn;
    } else {
      const region = Stack.of(this).region;
      if (!Token.isUnresolved(region) && region !== 'us-east-1')
        throw new ConfigError(
          `the stack is in ${region}, but a CloudFront web ACL can only be created in us-east-1: create one there and give its ARN as context webAclArn (docs/infra.md, "WAF")`,
        );
      // environment-agnostic synth: the region is known at deploy time only, so the template checks it
      new CfnRule(this, 'WebAclRegion', {
        assertions: [
          {
            assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
            assertDescription:
              'The portal creates its CloudFront web ACL itself only in us-east-1. In another region, create it there and deploy with -c webAclArn=<its ARN> (docs/infra.md, "WAF").',
          },
        ],
      });
      this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', webAclProps(config.stage));
      this.webAclArn = this.webAcl.attrArn;
    }
    distribution.attachWebAclId(this.webAclArn);
  }
}

/** The web ACL (exported: docs/infra.md tells how to create the same one in us-east-1 from it). */
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
    name: `frp-${stage}-edge`,
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
