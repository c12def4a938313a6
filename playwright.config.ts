import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/support/chromium';

/**
 * The journeys of the product in Debian's Chromium (no browser download) against a fresh local stack
 * started by test/e2e/global-setup.ts on free ports with a throw-away data folder. `npm test` builds the
 * SPA first. Traces and screenshots are kept for failures (test-results/).
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    headless: true,
    // colours settle at once (styles.css honours reduced motion): accessibility checks see final colours
    contextOptions: { reducedMotion: 'reduce' },
    viewport: { width: 1366, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: CHROMIUM_LAUNCH,
  },
});
