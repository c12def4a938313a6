/**
 * How Playwright launches Chromium here: the system's browser (CHROMIUM_PATH), without a sandbox, GPU or
 * background traffic. playwright.config.ts, scripts/screenshot-tour.ts and web/scripts/screenshots.ts use it.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
