import { mkdirSync } from 'node:fs';
import { COMPANY_NAME, COMPANY_PASSWORD } from '../../infra/local/company-idp';
import { API_ERR } from '../../shared/messages';
import { putCompanyAccounts } from '../support/company-idp';
import { expect, grantOnUsersScreen, signIn, signOut, test } from './support';

/**
 * Company sign-on (decision 315) in Chromium through the local provider's real pages: a new employee's
 * first sign-in ends at "waiting for two admins" (no role, then the role request); two admins grant it
 * on the users screen; the employee then works. Screenshots at 1366×768 and 1920×1080.
 */

const SHOTS = process.env.H34O_SHOTS ?? 'test-results/e2e/company-sign-on';
// the provider sends the browser back to the portal's own address (APP_URL, localhost), where the sign-in
// started: the binding of the starting window lives in that origin's storage
const portal = () => process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
const BUTTON = `Sign in with ${COMPANY_NAME}`;

test('a new employee signs in with the company, asks for a role, two admins grant it, and the employee works', async ({
  browser,
  a11y,
}) => {
  // a long journey (three people, two signatures) on a machine shared by several test runs
  test.setTimeout(420_000);
  mkdirSync(SHOTS, { recursive: true });
  const id = `nora-${Date.now().toString(36)}`;
  const email = `${id}@example.com`;
  putCompanyAccounts(process.env.E2E_DATA_DIR!, [
    { sub: id, email, email_verified: true, name: 'Nora Newcomer', password: COMPANY_PASSWORD },
  ]);

  const employee = await browser.newContext({ baseURL: portal(), viewport: { width: 1366, height: 768 } });
  const page = await employee.newPage();
  await page.goto('/login');
  // the spec's form stays as it is; the company button goes under it
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await expect(page.getByRole('button', { name: BUTTON })).toBeVisible();
  await a11y(page, '/login with company sign-on');
  await page.screenshot({ path: `${SHOTS}/login-1366x768.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/login-1920x1080.png` });
  await page.setViewportSize({ width: 1366, height: 768 });

  // the provider's own login page
  await page.getByRole('button', { name: BUTTON }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText(`with your ${COMPANY_NAME} account`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/provider-login-1366x768.png` });
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is not right.');
  await page.getByLabel('Password').fill(COMPANY_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // back in the portal: an account without a role, which sees its settings only and is asked for a role
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByRole('status').filter({ hasText: API_ERR.noRoleYet })).toBeVisible();
  await expect(page.getByText('Choose your role', { exact: true }).first()).toBeVisible();
  // no portal password: nothing to change there
  await expect(page.getByRole('radio', { name: 'Change password' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change password' })).toHaveCount(0);
  await a11y(page, '/settings of a first company sign-in');
  await page.screenshot({ path: `${SHOTS}/first-sign-in-settings-1366x768.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/first-sign-in-settings-1920x1080.png` });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.getByLabel('User role').selectOption({ label: 'Technical Leader' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('Two administrators must grant it: one proposes, a second confirms.'),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/role-requested-1366x768.png` });

  // two admins grant it on the users screen, where the company identity shows
  const admins = await browser.newContext({ baseURL: portal(), viewport: { width: 1366, height: 768 } });
  const admin = await admins.newPage();
  const row = `Nora Newcomer (${email})`;
  await signIn(admin, 'admin@example.com');
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto('/admin/users');
  await admin.getByLabel('Search').fill(email);
  await expect(admin.getByText(`Linked: ${email} (first sign-in), no portal password`)).toBeVisible();
  await admin.screenshot({ path: `${SHOTS}/admin-users-company-identity-1366x768.png` });
  await admin.setViewportSize({ width: 1920, height: 1080 });
  await admin.screenshot({ path: `${SHOTS}/admin-users-company-identity-1920x1080.png` });
  await admin.setViewportSize({ width: 1366, height: 768 });
  expect(await grantOnUsersScreen(admin, email, row)).toContain('proposes the grant');
  await signOut(admin);
  await signIn(admin, 'admin-2@example.com');
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto('/admin/users');
  expect(await grantOnUsersScreen(admin, email, row)).toContain('confirms the proposal of Ada Admin');
  await admins.close();

  // the employee works: the home page is open, the role is held
  await page.goto('/home');
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await expect(page.getByText('Technical Leader', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.screenshot({ path: `${SHOTS}/granted-home-1366x768.png` });
  await employee.close();
});
