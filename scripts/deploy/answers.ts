/**
 * The AWS answers the pre-deploy check reads (decision 309), as the SDK returns them: recorded by
 * `npm run deploy:check -- --record <file>` and replayed with `--answers <file>`, so the check's logic
 * (prerequisites.ts) is a pure function of them and is tested on recorded JSON. Every call is read-only.
 */

/** One call's answer: the SDK's response, or the error it threw (its name and message). */
export type Answer<T> = { ok: T } | { error: { name: string; message: string } };

export interface StackSummary {
  Stacks?: { StackName?: string; StackStatus?: string; EnableTerminationProtection?: boolean }[];
}

export interface TrailSummary {
  Name?: string;
  TrailARN?: string;
  HomeRegion?: string;
  IsMultiRegionTrail?: boolean;
  IsOrganizationTrail?: boolean;
}

export interface EventSelectors {
  EventSelectors?: {
    IncludeManagementEvents?: boolean;
    ReadWriteType?: string;
    ExcludeManagementEventSources?: string[];
  }[];
  AdvancedEventSelectors?: {
    FieldSelectors?: { Field?: string; Equals?: string[]; NotEquals?: string[] }[];
  }[];
}

export interface EmailIdentity {
  IdentityType?: string;
  VerifiedForSendingStatus?: boolean;
  DkimAttributes?: { Status?: string; Tokens?: string[]; SigningAttributesOrigin?: string };
}

export interface RecordedAnswers {
  /** the region the stage deploys to (its `region`, else the profile's) */
  region: string;
  /** sts:GetCallerIdentity */
  callerIdentity: Answer<{ Account?: string; Arn?: string }>;
  /** cloudformation:DescribeStacks CDKToolkit, per region the app deploys to (the stage's, us-east-1) */
  bootstrap: Record<string, Answer<StackSummary>>;
  /** cloudformation:DescribeStacks of the portal stack and the edge stack, by name */
  stacks: Record<string, Answer<StackSummary>>;
  /** iam:GetRole of signingKeyAdminRoleArn, when the stage names one */
  keyAdminRole?: Answer<{ Role?: { Arn?: string; RoleName?: string } }>;
  /** acm:DescribeCertificate in us-east-1, when the stage names a certificate */
  certificate?: Answer<{
    Certificate?: { Status?: string; DomainName?: string; SubjectAlternativeNames?: string[] };
  }>;
  /** sesv2:GetAccount in the stage's region */
  sesAccount: Answer<{ ProductionAccessEnabled?: boolean; SendingEnabled?: boolean }>;
  /** sesv2:GetEmailIdentity of the sender address and of its domain */
  sesIdentities: Record<string, Answer<EmailIdentity>>;
  /** DNS: the CNAME targets of `<token>._domainkey.<domain>` for an existing domain identity's tokens */
  dkimDns: Record<string, Answer<string[]>>;
  /** cloudtrail:DescribeTrails (shadow trails included: multi-region and organisation trails) */
  trails: Answer<{ trailList?: TrailSummary[] }>;
  /** cloudtrail:GetEventSelectors per trail ARN that records this region */
  trailSelectors: Record<string, Answer<EventSelectors>>;
  /** cloudtrail:GetTrailStatus per trail ARN: is it logging */
  trailLogging: Record<string, Answer<{ IsLogging?: boolean }>>;
  /** lambda:GetAccountSettings */
  lambdaAccount: Answer<{ AccountLimit?: { ConcurrentExecutions?: number } }>;
}
