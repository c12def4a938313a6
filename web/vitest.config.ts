import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The 'web' project of the root vitest run: component tests in jsdom against MSW handlers. */
export default defineProject({
  root: webRoot,
  resolve: { alias: { '@': `${webRoot}src`, '@shared': `${repoRoot}shared` } },
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // https origin: the token cookie is Secure and jsdom honours that
    environmentOptions: { jsdom: { url: 'https://portal.test/' } },
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 15_000,
    css: false,
  },
});
