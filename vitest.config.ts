import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * One vitest run, several projects:
 *  - unit: pure rules and services next to their code (no network)
 *  - integration: the API over HTTP against a local stack started once for the run (test/support/global-setup.ts)
 *  - infra: CDK template assertions and cdk-nag (synth is slow: own project, own timeout)
 *  - web: component tests in jsdom (web/vitest.config.ts)
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/**/*.test.ts',
            'lambdas/**/*.test.ts',
            'infra/local/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          // property tests run hundreds of cases: on a busy 2-core CI machine 5 s (the default) is not enough
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // the crash-point matrix has its own run (vitest.crash.config.ts, `npm run test:crash`)
          exclude: ['test/integration/crash-matrix.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // one stack, shared: files run one after another so counts and mailboxes stay predictable
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['infra/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      ...(existsSync('web/vitest.config.ts') ? ['web/vitest.config.ts'] : []),
    ],
  },
});
