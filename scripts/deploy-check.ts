/**
 * `npm run deploy:check -- --stage <stage> [--record answers.json] [--answers answers.json]`
 *
 * Names every missing prerequisite of a deploy before CloudFormation starts (decision 309; docs/infra.md,
 * step 1 of "From a fresh account to a working portal"): credentials and account, CDK bootstrap (the
 * stage's region and us-east-1), the stacks' state, the signing key's admin role, the certificate in
 * us-east-1, the SES identity (create or adopt) and its DKIM DNS records, the SES sandbox, CloudTrail
 * (an existing trail, the quota) and Lambda concurrency. Read-only AWS calls with the default credential
 * chain. Exit 0: nothing blocks; 1: a blocker; 2: the check could not run.
 */
import { parseArgs } from 'node:util';
import { formatFindings, runCheck } from './deploy/run-check';
import { opsFail } from './ops-env';

const fail: (message: string) => never = opsFail('deploy:check');
const { values } = parseArgs({
  options: {
    stage: { type: 'string' },
    answers: { type: 'string' },
    record: { type: 'string' },
  },
  strict: true,
});
if (!values.stage) fail('--stage <stage> is required (a stage of infra/stages.ts)');

try {
  const findings = await runCheck(values.stage, { answers: values.answers, record: values.record });
  console.log(`Pre-deploy check of stage ${values.stage}:`);
  console.log(formatFindings(findings));
  const blockers = findings.filter((f) => f.level === 'blocker').length;
  console.log(
    blockers === 0
      ? 'Nothing blocks the deploy.'
      : `${blockers} blocker(s): fix them, then run the check again.`,
  );
  process.exit(blockers === 0 ? 0 : 1);
} catch (e) {
  fail((e as Error).message);
}
