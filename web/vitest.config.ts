import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineProject } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The tests' composition root (decision 230): every `lambdas/composition*.ts` a handler imports resolves to
 * lambdas/testing/memory-composition.ts, so the real handlers run their services over memory adapters.
 */
function memoryComposition(): Plugin {
  const lambdas = `${repoRoot}lambdas/`;
  return {
    name: 'frp-memory-composition',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.startsWith(lambdas) || importer.startsWith(`${lambdas}testing/`)) return null;
      const target = resolve(dirname(importer), source).replace(/\.ts$/, '');
      return /^composition(-[a-z]+)*$/.test(target.slice(lambdas.length))
        ? `${lambdas}testing/memory-composition.ts`
        : null;
    },
  };
}

/** The 'web' project of the root vitest run: component tests in jsdom against MSW handlers (the real handlers over memory adapters). */
export default defineProject({
  root: webRoot,
  resolve: { alias: { '@': `${webRoot}src`, '@shared': `${repoRoot}shared` } },
  plugins: [memoryComposition(), react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // https origin: the token cookie is Secure and jsdom honours that
    environmentOptions: { jsdom: { url: 'https://portal.test/' } },
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 45_000,
    css: false,
    // the handlers' request log lines (Powertools) would drown the test output
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
  },
});
