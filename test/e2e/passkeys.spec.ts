import type { Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { passkeySteps } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { newcomer, packageFor, tokenOf } from './api-journeys';
import { openApproveDialog, shootAt, virtualAuthenticator } from './browser-steps';
import { expect, test } from './support';

/**
 * Passkeys in Chromium (decision 322): a virtual authenticator of the DevTools WebAuthn domain (user
 * verification on) stands in for a laptop's platform authenticator. The page is opened on localhost, the
 * local stack's relying party (an IP address is never an RP id).
 */
const LOCAL = process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
test.use({ baseURL: LOCAL });

const SHOTS = process.env.H34P_SHOTS ?? 'test-results/e2e/passkeys';
const shoot = (page: Page, name: string) => shootAt(page, `${SHOTS}/${name}`);

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: MSG.submit }).click();
}

test('a user adds a passkey in Settings, signs in with it and approves a package with it; the history names the method', async ({
  browser,
  a11y,
}) => {
  // a newcomer, two admins' grants and a package made through the API: slow password hashes on a busy machine
  test.setTimeout(600_000);
  const password = 'Passkey-Journey-1';
  const pat = await newcomer(password);
  const pkg = await packageFor(pat.id);

  const context = await browser.newContext({ baseURL: LOCAL });
  const page = await context.newPage();
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

  // no passkey yet: the password is the whole sign-in
  await passwordStep(page, pat.email, password);
  await expect(page).toHaveURL(/\/home$/);

  // Settings → Passkeys → add one, confirmed with the password
  await page.goto('/user/settings?form=passkeys');
  const add = page.getByRole('form', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Work laptop');
  await add.getByLabel(/^Your password/).fill(password);
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Work laptop" added' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your passkeys' })).toContainText('Work laptop');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await a11y(page, 'Settings → Passkeys');
  await shoot(page, 'settings-passkeys');

  // sign out and in again: the password, then the passkey (the virtual authenticator answers)
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await passwordStep(page, pat.email, password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('table', { name: 'Your passkeys' })).toHaveCount(0);

  // the package waits for Pat's approval: signed with the passkey (user verified)
  const dialog = await openApproveDialog(page, pkg.name);
  const withPasskey = dialog.getByRole('button', { name: 'Approve with a passkey' });
  await expect(withPasskey).toBeVisible();
  await a11y(page, 'signature dialog with a passkey');
  await shoot(page, 'signature-dialog-passkey');
  await withPasskey.click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.frp-dialog')).toContainText(MSG.approvedWaiting);
  await page.locator('.frp-dialog button').last().click();

  // the approval record names how the approval was signed
  await page.goto(`/packages/open/${pkg.id}`);
  const record = page.getByRole('table', { name: 'Approval record, newest first' });
  await expect(record).toContainText('Signed with: passkey (user verified)');
  await shoot(page, 'approval-record-passkey');
  await context.close();
});

test('the sign-on screens read well at laptop and desktop sizes: company button, passkey step, Settings → Passkeys, the admins’ sign-in methods', async ({
  browser,
  a11y,
}) => {
  test.setTimeout(600_000); // a newcomer and two grants: slow password hashes
  const pat = await newcomer('Passkey-Screens-1');
  const password = 'Passkey-Screens-1';
  // a passkey of a software authenticator, added over the API with the password
  const steps = passkeySteps(process.env.E2E_BASE_URL!);
  const patToken = await tokenOf(pat.email, password);
  const added = await steps.addPasskey(
    patToken,
    new SoftAuthenticator(LOCAL),
    'Work laptop (Windows Hello)',
    password,
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);

  const context = await browser.newContext({ baseURL: LOCAL });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: /^Sign in with / })).toBeVisible();
  await a11y(page, '/login with company sign-on');
  await shoot(page, 'screens-login');

  // the passkey step: an authenticator that waits for a touch keeps the page at the step
  await virtualAuthenticator(context, page, false);
  await passwordStep(page, pat.email, password);
  await expect(page.getByRole('status').filter({ hasText: 'Confirm with your passkey' })).toBeVisible();
  await a11y(page, 'the passkey step');
  await shoot(page, 'screens-passkey-step');
  await context.close();

  // Settings → Passkeys of a user who holds one (the session the API gave before the passkey was added)
  const signed = await browser.newContext({ baseURL: LOCAL });
  await signed.addCookies([{ name: 'token', value: encodeURIComponent(patToken), url: LOCAL }]);
  const settings = await signed.newPage();
  await settings.goto('/user/settings?form=passkeys');
  await expect(settings.getByRole('table', { name: 'Your passkeys' })).toContainText(
    'Work laptop (Windows Hello)',
  );
  await a11y(settings, 'Settings → Passkeys');
  await shoot(settings, 'screens-settings-passkeys');

  await signed.close();

  // the admins' users list: each user's sign-in methods
  const admins = await browser.newContext({ baseURL: LOCAL });
  const list = await admins.newPage();
  await passwordStep(list, 'admin@example.com', SEED_PASSWORD);
  await expect(list).toHaveURL(/\/admin$/);
  await list.goto('/admin/users');
  await list.getByLabel('Search').fill(pat.email);
  await expect(list.getByRole('row', { name: new RegExp(pat.email) })).toContainText('Password + 1 passkey');
  await a11y(list, 'admin users with sign-in methods');
  await shoot(list, 'screens-admin-sign-in-methods');
  await admins.close();
});
