/**
 * `npm run deploy -- --stage <stage> [--ref <tag>] [-- <cdk deploy options>]`
 *
 * One command from a checkout to a deployed stage (decision 310; docs/infra.md): the pre-deploy check
 * (a blocker stops here), a fresh build of this commit's SPA, then `cdk deploy --all -c stage=<stage>`
 * (the edge stack in us-east-1 first, then the portal stack). The checkout must be committed.
 *
 * `--ref <tag>` rolls back: the tag's code and SPA, built in a worktree beside this checkout, deployed
 * with the CURRENT stage settings (infra/stages.ts of this checkout), since the tag's may name an origin
 * secret version or a signing key that was retired since (docs/operations.md, "API errors").
 * Exit 0 deployed; 1 a step failed or the check found a blocker; 2 wrong usage.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../infra/lib/portal-config';
import { deployPlan, dirtyReasons } from './deploy/plan';
import { formatFindings, runCheck } from './deploy/run-check';
import { opsFail } from './ops-env';

const fail: (message: string) => never = opsFail('deploy');
const { values, positionals } = parseArgs({
  options: { stage: { type: 'string' }, ref: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});
if (!values.stage) fail('--stage <stage> is required (a stage of infra/stages.ts)');

const git = (...args: string[]) => spawnSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
// a rollback too: it deploys this checkout's stage settings, which must be a commit like the rest
const reasons = dirtyReasons(git('status', '--porcelain').stdout ?? '');
if (reasons.length > 0) fail(reasons.join('; '));
const worktree = values.ref ? join(mkdtempSync(join(tmpdir(), 'frp-rollback-')), 'checkout') : undefined;
const plan = deployPlan({
  stage: values.stage,
  root: REPO_ROOT,
  ref: values.ref,
  worktree,
  cdkArgs: positionals,
});
/** a failed rollback leaves its worktree for a look at what failed: say where, and how to remove it */
const leftBehind = () =>
  worktree
    ? ` The rollback's checkout stays in ${worktree}: \`git worktree remove --force ${worktree}\`.`
    : '';

for (const [i, step] of plan.entries()) {
  console.log(`\n── ${i + 1}/${plan.length} ${step.what}`);
  if (step.kind === 'check') {
    const findings = await runCheck(step.stage).catch((e: Error) => fail(e.message));
    console.log(formatFindings(findings));
    if (findings.some((f) => f.level === 'blocker')) {
      console.error('deploy: the pre-deploy check found blockers; nothing was deployed.');
      process.exit(1);
    }
  } else if (step.kind === 'copy') copyFileSync(step.from, step.to);
  else {
    const r = spawnSync(step.command, step.args, { cwd: step.cwd, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(
        `deploy: "${step.command} ${step.args.join(' ')}" failed (exit ${r.status ?? r.signal}).${leftBehind()}`,
      );
      process.exit(1);
    }
  }
}
console.log(
  `\nStage ${values.stage} deployed${values.ref ? ` at ${values.ref} with the current stage settings` : ` at ${git('rev-parse', '--short', 'HEAD').stdout.trim()}`}.`,
);
