import { defineConfig } from 'vitest/config';

/**
 * The crash-point matrix (decision 291): every writing route and worker, killed after each of its storage
 * writes, on a stack of its own (`npm run test:crash`). Its own run, not part of `npm test`: it makes some
 * hundred crash points and takes 15–25 minutes on two cores, beyond what the CI run can spend beside the
 * rest. The SIGKILL test (test/integration/crash-kill.test.ts) and the integration run's closing
 * audit:verify stay in `npm test`.
 */
export default defineConfig({
  test: {
    name: 'crash',
    include: ['test/integration/crash-matrix.test.ts'],
    environment: 'node',
    testTimeout: 900_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
