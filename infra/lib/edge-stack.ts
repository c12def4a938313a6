import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { edgeWebAclName, WEB_ACL_OUTPUT, webAclProps } from './constructs/edge';

export interface EdgeStackProps extends StackProps {
  stage: string;
}

/**
 * The part of the portal that must live in us-east-1 whatever the stage's region (decision 305): the
 * CloudFront web ACL (per-address rate limits with JSON 429 answers, AWS managed rule groups; rules in
 * constructs/edge.ts). Its ARN is the output WebAclArn, which the portal stack reads with
 * Fn::GetStackOutput at deploy time: no custom resource, no SSM parameter, and the portal stack's region
 * may still come from the CLI profile.
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', webAclProps(props.stage));
    if (this.webAcl.name !== edgeWebAclName(props.stage)) throw new Error('edge web ACL name drifted');
    new CfnOutput(this, WEB_ACL_OUTPUT, {
      value: this.webAcl.attrArn,
      description: `CloudFront web ACL of FirmwareReleasePortal-${props.stage} (read by that stack at deploy time)`,
    });
  }
}
