import { Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface AuditorsProps {
  stage: string;
  /** the buckets auditors read: generated packages (artefacts) and the write-once audit copy */
  buckets: s3.Bucket[];
  /** the package signing key; auditors read its public half only */
  signingKey: kms.IKey;
  /** the audit table: `npm run audit:verify` compares it with the bucket copy (decision 099) */
  auditTable: dynamodb.ITable;
  /** the stack whose outputs name the table and buckets (audit:verify reads them) */
  stackId: string;
  /**
   * the resources bucket: auditors read the pinned SBOMs under `sbom/` beside the packages
   * (decision 276), nothing else of it
   */
  sbomBucket?: s3.IBucket;
}

/**
 * The design card's fourth user: a read-only auditor role, and the same permissions as a managed policy
 * for whoever assumes it (or for an auditor's own IAM user or SSO permission set). Read and list object
 * versions of the artefacts and audit buckets, read the signing key's public half, read the audit table
 * and the stack's outputs (so `npm run audit:verify` runs with this role alone, decision 099); nothing else. The
 * buckets are encrypted with S3-managed keys (SSE-S3), so no kms:Decrypt is needed (decision 093).
 */
export class Auditors extends Construct {
  readonly policy: iam.ManagedPolicy;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: AuditorsProps) {
    super(scope, id);
    this.policy = new iam.ManagedPolicy(this, 'ReadOnlyPolicy', {
      description: `Firmware Release Portal (${props.stage}): auditors read packages, the audit copy and the signing public key`,
      statements: auditorStatements(props),
    });
    this.role = new iam.Role(this, 'Role', {
      description: `Firmware Release Portal (${props.stage}): read-only auditor`,
      // Principals of this account whose own policy lets them sts:AssumeRole on this role.
      assumedBy: new iam.AccountRootPrincipal(),
      managedPolicies: [this.policy],
    });
    if (props.sbomBucket) {
      const logicalId = Stack.of(props.sbomBucket).getLogicalId(
        props.sbomBucket.node.defaultChild as s3.CfnBucket,
      );
      Validations.of(this.policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/sbom/*]`,
        reason:
          'Auditors read the SBOM files packages pin: one prefix of the resources bucket, keys made at run time per resource. Read actions only.',
      });
    }
    for (const bucket of props.buckets) {
      const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
      Validations.of(this.policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/*]`,
        reason:
          'Auditors read every object (and every version) of this one bucket: generated packages or the write-once audit copy, under keys made at run time. Read actions only, listed one by one.',
      });
    }
  }
}

/** The exact statements of the auditor policy (infra tests compare the template with these). */
export function auditorStatements(
  props: Pick<AuditorsProps, 'buckets' | 'signingKey' | 'auditTable' | 'stackId' | 'sbomBucket'>,
): iam.PolicyStatement[] {
  return [
    new iam.PolicyStatement({
      sid: 'ReadObjectVersions',
      actions: ['s3:GetObject', 's3:GetObjectVersion'],
      resources: props.buckets.map((b) => b.arnForObjects('*')),
    }),
    new iam.PolicyStatement({
      sid: 'ListObjectVersions',
      actions: ['s3:ListBucket', 's3:ListBucketVersions'],
      resources: props.buckets.map((b) => b.bucketArn),
    }),
    new iam.PolicyStatement({
      sid: 'ReadSigningPublicKey',
      actions: ['kms:GetPublicKey'],
      resources: [props.signingKey.keyArn],
    }),
    // audit:verify: the table side of the comparison (read only) and where the names come from
    new iam.PolicyStatement({
      sid: 'ReadAuditTable',
      actions: ['dynamodb:Scan', 'dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:DescribeTable'],
      resources: [props.auditTable.tableArn],
    }),
    new iam.PolicyStatement({
      sid: 'ReadStackOutputs',
      actions: ['cloudformation:DescribeStacks'],
      resources: [props.stackId],
    }),
    // the SBOMs packages pin, read beside the packages (objects under sbom/ only)
    ...(props.sbomBucket
      ? [
          new iam.PolicyStatement({
            sid: 'ReadPinnedSboms',
            actions: ['s3:GetObject', 's3:GetObjectVersion'],
            resources: [props.sbomBucket.arnForObjects('sbom/*')],
          }),
        ]
      : []),
  ];
}
