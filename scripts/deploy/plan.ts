import { join } from 'node:path';
import { STAGES_FILE } from '../../infra/lib/portal-config';

/**
 * What `npm run deploy` runs, as data (decision 310): the same steps for a deploy of the checked-out
 * commit and for a rollback to an earlier tag, so the runbook is one command and the plan is tested.
 */
export type Step =
  | { kind: 'run'; what: string; cwd: string; command: string; args: string[] }
  /** copy a file from the current checkout into the rollback's worktree */
  | { kind: 'copy'; what: string; from: string; to: string }
  /** the pre-deploy check (prerequisites.ts) of the stage; a blocker stops the plan */
  | { kind: 'check'; what: string; stage: string };

export interface PlanOptions {
  stage: string;
  /** the repository the command runs in */
  root: string;
  /** roll back to this tag or commit: its code and SPA, with the current stage settings */
  ref?: string;
  /** where the rollback's worktree goes (a fresh temporary directory) */
  worktree?: string;
  /** arguments passed on to `cdk deploy` (after `--`) */
  cdkArgs?: string[];
}

/** The steps of a deploy, or of a rollback when `ref` is given. */
export function deployPlan(o: PlanOptions): Step[] {
  const cdk = (cwd: string): Step => ({
    kind: 'run',
    what: `deploy stage ${o.stage}: the edge stack in us-east-1, then the portal stack`,
    cwd,
    command: 'npx',
    args: ['cdk', 'deploy', '--all', '-c', `stage=${o.stage}`, ...(o.cdkArgs ?? [])],
  });
  // a fresh build of this checkout's SPA: never a stale web/dist left on disk
  const web = (cwd: string): Step[] => [
    { kind: 'run', what: 'remove the previous SPA build', cwd, command: 'rm', args: ['-rf', 'web/dist'] },
    { kind: 'run', what: 'build the SPA of this commit', cwd, command: 'npm', args: ['run', 'build:web'] },
  ];
  const check: Step = { kind: 'check', what: 'pre-deploy check (npm run deploy:check)', stage: o.stage };
  if (o.ref === undefined) return [check, ...web(o.root), cdk(o.root)];

  if (!o.worktree) throw new Error('a rollback needs a worktree directory');
  const wt = o.worktree;
  return [
    check,
    {
      kind: 'run',
      what: `check out ${o.ref} beside this checkout`,
      cwd: o.root,
      command: 'git',
      args: ['worktree', 'add', '--detach', wt, o.ref],
    },
    {
      kind: 'copy',
      what: `keep the current stage settings (${STAGES_FILE}): the tag's may name retired secret versions or keys`,
      from: join(o.root, STAGES_FILE),
      to: join(wt, STAGES_FILE),
    },
    { kind: 'run', what: `install the dependencies of ${o.ref}`, cwd: wt, command: 'npm', args: ['ci'] },
    ...web(wt),
    cdk(wt),
    {
      kind: 'run',
      what: 'remove the rollback worktree',
      cwd: o.root,
      command: 'git',
      args: ['worktree', 'remove', '--force', wt],
    },
  ];
}

/**
 * Why the checkout must not be deployed as it is: uncommitted changes would reach AWS under no commit
 * (`git status --porcelain` output in, reasons out; empty when it is clean).
 */
export function dirtyReasons(porcelain: string): string[] {
  const lines = porcelain.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  return [
    `the checkout has ${lines.length} uncommitted change(s) (${lines
      .slice(0, 3)
      .map((l) => l.slice(3))
      .join(', ')}${lines.length > 3 ? ', …' : ''}): commit them, so what is deployed is a commit`,
  ];
}
