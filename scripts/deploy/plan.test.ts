import { describe, expect, it } from 'vitest';
import { deployPlan, dirtyReasons, type Step } from './plan';

const runs = (plan: Step[]) =>
  plan.map((s) =>
    s.kind === 'run'
      ? `${s.cwd}$ ${s.command} ${s.args.join(' ')}`
      : s.kind === 'copy'
        ? `copy ${s.from} -> ${s.to}`
        : `check ${s.stage}`,
  );

describe('npm run deploy (decision 310)', () => {
  it("checks first, builds this commit's SPA afresh, then deploys both stacks of the stage", () => {
    expect(runs(deployPlan({ stage: 'prod', root: '/repo' }))).toEqual([
      'check prod',
      '/repo$ rm -rf web/dist',
      '/repo$ npm run build:web',
      '/repo$ npx cdk deploy --all -c stage=prod',
    ]);
    expect(
      runs(deployPlan({ stage: 'dev', root: '/repo', cdkArgs: ['--require-approval', 'never'] })).at(-1),
    ).toBe('/repo$ npx cdk deploy --all -c stage=dev --require-approval never');
  });

  it("rolls back with the tag's code and SPA but the current stage settings", () => {
    expect(
      runs(deployPlan({ stage: 'prod', root: '/repo', ref: 'v1.4.0', worktree: '/tmp/rb/checkout' })),
    ).toEqual([
      'check prod',
      '/repo$ git worktree add --detach /tmp/rb/checkout v1.4.0',
      'copy /repo/infra/stages.ts -> /tmp/rb/checkout/infra/stages.ts',
      '/tmp/rb/checkout$ npm ci',
      '/tmp/rb/checkout$ rm -rf web/dist',
      '/tmp/rb/checkout$ npm run build:web',
      '/tmp/rb/checkout$ npx cdk deploy --all -c stage=prod',
      '/repo$ git worktree remove --force /tmp/rb/checkout',
    ]);
    expect(() => deployPlan({ stage: 'prod', root: '/repo', ref: 'v1.4.0' })).toThrow(/worktree/);
  });

  it('refuses a checkout with uncommitted changes, naming them', () => {
    expect(dirtyReasons('')).toEqual([]);
    expect(dirtyReasons(' M infra/stages.ts\n?? web/src/x.tsx\n')).toEqual([
      'the checkout has 2 uncommitted change(s) (infra/stages.ts, web/src/x.tsx): commit them, so what is deployed is a commit',
    ]);
  });
});
