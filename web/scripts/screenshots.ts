/**
 * Screenshots of every screen of the web app, for a person to look at (not a test).
 *
 *   npm run build:web && PORT=3917 ... npx tsx infra/local/main.ts     # or: npm run dev:mock
 *   BASE_URL=http://localhost:3917 npx tsx web/scripts/screenshots.ts
 *
 * Writes PNGs to SHOTS_DIR (default /tmp/shots), prefixed with SHOTS_PREFIX.
 */
import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH } from '../../test/support/chromium';

const BASE = process.env.BASE_URL ?? 'http://localhost:3000';
const OUT = process.env.SHOTS_DIR ?? '/tmp/shots';
const PREFIX = process.env.SHOTS_PREFIX ?? '';
const PASSWORD = process.env.SHOTS_PASSWORD ?? 'Local-Dev-1234';

mkdirSync(OUT, { recursive: true });

async function shot(page: Page, name: string) {
  await page.waitForTimeout(350);
  await page.screenshot({ path: `${OUT}/${PREFIX}${name}.png`, fullPage: true });
  console.log(`${OUT}/${PREFIX}${name}.png`);
}

async function signIn(browser: Browser, email: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/(home|admin)$/);
  return { context, page };
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);

try {
  // visitors
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/login`);
    await page.getByRole('button', { name: 'Submit' }).waitFor();
    await shot(page, '01-login');
    await page.getByRole('button', { name: 'Submit' }).click();
    await shot(page, '02-login-empty');
    await page.getByLabel('Email address').fill('design-engineer-dev@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Login or password is incorrect').waitFor();
    await page.getByLabel('Email address').focus();
    await shot(page, '03-login-incorrect-focus');
    await page.goto(`${BASE}/register`);
    await page.getByRole('button', { name: 'Submit' }).click();
    await shot(page, '04-register-errors');
    await page.goto(`${BASE}/user/reset-password`);
    await page.getByRole('button', { name: 'Submit' }).waitFor();
    await shot(page, '05-reset-password');
    await context.close();
  }
  // a design engineer
  {
    const { context, page } = await signIn(browser, 'design-engineer-dev@example.com');
    await page.getByText('Inspiring the extraordinary').waitFor();
    await shot(page, '10-home');
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    await shot(page, '11-avatar-menu');
    await page.keyboard.press('Escape');
    await page.goto(`${BASE}/patches`);
    await page.waitForLoadState('networkidle');
    await shot(page, '12-patches');
    if (await page.getByRole('button', { name: /To home page|Close/ }).isVisible()) {
      await page.getByRole('button', { name: /To home page|Close/ }).click();
      await page.goto(`${BASE}/patches`);
      await page.waitForLoadState('networkidle');
    }
    const firstRow = page.locator('tbody tr').first();
    if ((await page.locator('tbody input[type=radio]').count()) > 0) {
      await firstRow.click();
      await shot(page, '13-patches-selected');
    }
    await page.goto(`${BASE}/models`);
    await page.waitForLoadState('networkidle');
    await shot(page, '14-models');
    const dismiss = page.getByRole('button', { name: /To home page|Close/ });
    if (await dismiss.isVisible()) await dismiss.click();
    await page.goto(`${BASE}/upload`);
    await page.getByRole('heading', { name: 'Upload Patch' }).waitFor();
    await shot(page, '15-upload-patch');
    await page.getByLabel('Patch name').focus();
    await page.getByLabel('Patch name').blur();
    await page
      .getByLabel('Patch file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await shot(page, '16-upload-errors');
    const patchName = `infusion-pump-fw-${Date.now() % 100000}`;
    await page.getByLabel('Patch name').fill(patchName);
    await page.getByLabel('Patch file').setInputFiles({
      name: `${patchName}.bin`,
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(4096, 7),
    });
    await shot(page, '17-upload-ready');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('button', { name: /Close|To home page/ }).waitFor();
    await shot(page, '18-upload-result');
    await page.getByRole('button', { name: /Close|To home page/ }).click();
    await page.goto(`${BASE}/upload`);
    await page.getByRole('tab', { name: 'Model' }).click();
    await page.getByRole('heading', { name: 'Upload Model' }).waitFor();
    await shot(page, '19-upload-model');
    await page.goto(`${BASE}/user/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shot(page, '20-settings-info');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await shot(page, '21-settings-password');
    await page.goto(`${BASE}/packages`);
    await page.getByText('Coming soon').waitFor();
    await shot(page, '22-packages-placeholder');
    // the session ends under the user's feet: the next call answers 401
    await page.goto(`${BASE}/patches`);
    await page.getByRole('tab', { name: 'Release' }).waitFor();
    await page.waitForLoadState('networkidle');
    await context.addCookies([{ name: 'token', value: 'expired', url: BASE }]);
    await page.getByRole('tab', { name: 'Release' }).click();
    await page.getByRole('button', { name: 'To login page' }).waitFor();
    await shot(page, '23-session-timeout');
    await context.close();
  }
  // a technical leader: no UPLOAD
  {
    const { context, page } = await signIn(browser, 'technical-leader@example.com');
    await shot(page, '30-home-technical-leader');
    await context.close();
  }
  // an admin
  {
    const { context, page } = await signIn(browser, 'admin@example.com');
    await page.getByText('Inspiring the extraordinary').waitFor();
    await shot(page, '40-admin-home');
    for (const [name, path] of [
      ['41-admin-packages', 'packages'],
      ['42-admin-dcc', 'dcc'],
      ['43-admin-users', 'users'],
      ['44-admin-resources', 'resources'],
    ] as const) {
      await page.goto(`${BASE}/admin/${path}`);
      await page.waitForLoadState('networkidle');
      await shot(page, name);
      const dismiss = page.getByRole('button', { name: /To home page|Close/ });
      if (await dismiss.isVisible()) await dismiss.click();
    }
    await page.goto(`${BASE}/admin/users`);
    await page.waitForLoadState('networkidle');
    if ((await page.locator('tbody input[type=checkbox]').count()) > 1) {
      await page.locator('tbody tr').nth(1).click();
      await shot(page, '45-admin-users-selected');
    }
    await context.close();
  }
  // a phone
  {
    const { context, page } = await signIn(browser, 'design-engineer-test@example.com', {
      width: 390,
      height: 844,
    });
    await shot(page, '50-mobile-home');
    await page.goto(`${BASE}/upload`);
    await page.getByRole('heading', { name: 'Upload Patch' }).waitFor();
    await shot(page, '51-mobile-upload');
    await context.close();
  }
} finally {
  await browser.close();
}
