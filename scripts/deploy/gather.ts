import { resolveCname } from 'node:dns/promises';
import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  CloudTrailClient,
  DescribeTrailsCommand,
  GetEventSelectorsCommand,
  GetTrailStatusCommand,
} from '@aws-sdk/client-cloudtrail';
import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { EDGE_REGION, edgeStackName } from '../../infra/lib/constructs/edge';
import { stackName } from '../../infra/lib/portal-app';
import type { StageConfig } from '../../infra/lib/portal-config';
import type { Answer, RecordedAnswers } from './answers';

/** Runs one read-only call and keeps its answer or its error (never throws). */
async function answer<T>(call: () => Promise<T>): Promise<Answer<T>> {
  try {
    const ok = await call();
    // the SDK's $metadata is not part of the answer a check reads
    if (ok && typeof ok === 'object' && '$metadata' in ok) delete (ok as { $metadata?: unknown }).$metadata;
    return { ok };
  } catch (e) {
    const err = e as Error & { Code?: string };
    return { error: { name: err.name || err.Code || 'Error', message: err.message } };
  }
}

/**
 * Asks AWS, read-only, everything checkPrerequisites reads (decision 309): credentials from the default
 * chain, the stage's region (its `region`, else the profile's). No call changes anything.
 */
export async function gatherAnswers(name: string, stage: StageConfig): Promise<RecordedAnswers> {
  const sts = new STSClient(stage.region ? { region: stage.region } : {});
  const region = stage.region ?? (await sts.config.region());
  const at = { region };
  const cfn = (r: string) => new CloudFormationClient({ region: r });
  const describe = (r: string, stack: string) =>
    answer(() => cfn(r).send(new DescribeStacksCommand({ StackName: stack })));

  const regions = stage.webAclArn === undefined ? [...new Set([region, EDGE_REGION])] : [region];
  const bootstrap: RecordedAnswers['bootstrap'] = {};
  for (const r of regions) bootstrap[r] = await describe(r, 'CDKToolkit');
  const stacks: RecordedAnswers['stacks'] = { [stackName(name)]: await describe(region, stackName(name)) };
  if (stage.webAclArn === undefined)
    stacks[edgeStackName(name)] = await describe(EDGE_REGION, edgeStackName(name));

  const ses = new SESv2Client(at);
  const sesIdentities: RecordedAnswers['sesIdentities'] = {};
  for (const identity of [stage.senderAddress, stage.senderDomain])
    sesIdentities[identity] = await answer(() =>
      ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity })),
    );
  const dkimDns: RecordedAnswers['dkimDns'] = {};
  const domain = sesIdentities[stage.senderDomain];
  if (domain && 'ok' in domain)
    for (const token of domain.ok.DkimAttributes?.Tokens ?? []) {
      const host = `${token}._domainkey.${stage.senderDomain}`;
      dkimDns[host] = await answer(() => resolveCname(host));
    }

  const trail = new CloudTrailClient(at);
  const trails = await answer(() => trail.send(new DescribeTrailsCommand({ includeShadowTrails: true })));
  const trailSelectors: RecordedAnswers['trailSelectors'] = {};
  const trailLogging: RecordedAnswers['trailLogging'] = {};
  if ('ok' in trails)
    for (const t of trails.ok.trailList ?? []) {
      if (!t.TrailARN) continue;
      // a shadow trail is read in its home region
      const home = new CloudTrailClient({ region: t.HomeRegion ?? region });
      trailSelectors[t.TrailARN] = await answer(() =>
        home.send(new GetEventSelectorsCommand({ TrailName: t.TrailARN })),
      );
      trailLogging[t.TrailARN] = await answer(() =>
        home.send(new GetTrailStatusCommand({ Name: t.TrailARN })),
      );
    }

  return {
    region,
    callerIdentity: await answer(() => sts.send(new GetCallerIdentityCommand({}))),
    bootstrap,
    stacks,
    keyAdminRole: stage.signingKeyAdminRoleArn
      ? await answer(() =>
          new IAMClient(at).send(
            new GetRoleCommand({ RoleName: stage.signingKeyAdminRoleArn!.split('/').pop()! }),
          ),
        )
      : undefined,
    certificate: stage.certificateArn
      ? await answer(() =>
          new ACMClient({ region: EDGE_REGION }).send(
            new DescribeCertificateCommand({ CertificateArn: stage.certificateArn }),
          ),
        )
      : undefined,
    sesAccount: await answer(() => ses.send(new GetAccountCommand({}))),
    sesIdentities,
    dkimDns,
    trails,
    trailSelectors,
    trailLogging,
    lambdaAccount: await answer(() => new LambdaClient(at).send(new GetAccountSettingsCommand({}))),
  };
}
