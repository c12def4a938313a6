import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { API_ERR, MSG } from '../../shared/messages';
import { apiUrl, expect, grantOnUsersScreen, mailsTo, signIn, signOut, test } from './support';

/** With SHOTS_DIR set, a screenshot of the page at 1366×768 (the account screens). */
async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: join(dir, `${name}-1366x768.png`), fullPage: false });
}

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('accounts', () => {
  test('a newcomer registers, confirms the address by the mailed link, is granted by an admin, sees the tabs of their role, edits profile and password, and signs out', async ({
    page,
    a11y,
  }) => {
    // the longest journey: a dozen scrypt hashes (registration, confirmation, sign-ins, password change)
    // and two admins signing in and out to grant, on a shared 2-core machine
    test.setTimeout(300_000);
    const email = `${unique('tess')}@example.com`;
    const password = 'Newcomer-Pass-1';

    await page.goto('/register');
    await page.getByLabel('Name').fill('Tess Newcomer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat password').fill(password);
    await page.getByLabel('User role').selectOption({ label: 'Design Engineer (test)' });
    await a11y(page, '/register');
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(MSG.registered)).toBeVisible();
    await page.getByRole('button', { name: MSG.toLoginPage }).click();
    await expect(page).toHaveURL(/\/login$/);

    // a wrong password first
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password');
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(MSG.loginIncorrect)).toBeVisible();

    // the right password before confirming: the page says so and sends the link again
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(API_ERR.emailNotConfirmed)).toBeVisible();
    const before = (await mailsTo(email)).length;
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(page.getByText(API_ERR.confirmationResent)).toBeVisible();
    expect(await mailsTo(email)).toHaveLength(before + 1);

    // the newest link of the mailbox, opened in the browser
    const link = /\/user\/confirm-email\?token=[A-Za-z0-9_-]+/.exec(
      (await mailsTo(email)).at(-1)?.text ?? '',
    )?.[0];
    expect(link, 'the mail carries a confirmation link').toBeTruthy();
    // confirming takes the password chosen at registration too (a wrong one changes nothing)
    await page.goto(link!);
    await expect(page.getByRole('button', { name: 'I did not register' })).toBeVisible();
    await a11y(page, '/user/confirm-email');
    await shoot(page, 'confirm-email');
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Chosen-One');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText(API_ERR.confirmPasswordWrong)).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText(API_ERR.emailConfirmed)).toBeVisible();
    // a second use of the same link is refused and offers a new one
    await page.goto(link!);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText(API_ERR.confirmLinkUsed)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send a new link' })).toBeVisible();

    // signed in, the role is only requested: the settings page only, saying why; uploading is refused
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/user\/settings$/);
    await expect(page.getByText('Your role awaits an administrator')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(0);
    await page.goto('/packages');
    await expect(page).toHaveURL(/\/user\/settings$/);
    const token = (await page.context().cookies()).find((c) => c.name === 'token')!.value;
    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(64)]), 'x.bin');
    const refused = await fetch(apiUrl(`/resources/patch/dev?name=${unique('p')}`), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errorMessage: string }).errorMessage).toContain(
      "Your role Design Engineer (test) waits for an administrator's approval",
    );
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();

    // two admins grant the role on the users screen: one proposes, a second confirms
    await signIn(page, 'admin@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'USERS' })
      .click();
    await page.getByLabel('Search').fill(email);
    await expect(page.getByRole('cell', { name: 'Requested: Design Engineer (test)' })).toBeVisible();
    await a11y(page, '/admin/users');
    await grantOnUsersScreen(page, email, `Tess Newcomer (${email})`);
    await signOut(page);
    await signIn(page, 'admin-2@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto('/admin/users');
    await grantOnUsersScreen(page, email, `Tess Newcomer (${email})`);
    await page.getByLabel('Search').fill(email);
    await expect(page.getByRole('cell', { name: 'Granted', exact: true })).toBeVisible();
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();

    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/home$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const tab of ['PACKAGES', 'PATCHES', 'MODELS', 'APPROVAL', 'SIGNING', 'UPLOAD']) {
      await expect(nav.getByRole('link', { name: tab })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: /Account menu of Tess Newcomer/ })).toHaveText('TN');

    // profile
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/user\/settings$/);
    await a11y(page, '/user/settings');
    await page.getByLabel('Name').fill('Tess Renamed');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page.getByText(MSG.settingsSaved)).toBeVisible();
    await page.getByRole('button', { name: MSG.close }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('button', { name: /Account menu of Tess Renamed/ })).toHaveText('TR');

    // password
    await page.goto('/user/settings');
    await page.getByRole('button', { name: MSG.changePassword }).click();
    await page.getByLabel('Old password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill('Changed-Pass-22');
    await page.getByLabel('Repeat new password').fill('Changed-Pass-22');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page.getByText(MSG.settingsSaved)).toBeVisible();
    await page.getByRole('button', { name: MSG.close }).click();
    await expect(page).toHaveURL(/\/home$/);

    // sign out; the new password is the one that works
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const old = await fetch(apiUrl('/user/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: email, password }),
    });
    expect(old.status).toBe(401);
    await signIn(page, email, 'Changed-Pass-22');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a forgotten password: the reset mail arrives and its temporary password signs in', async ({
    page,
    a11y,
  }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/user\/reset-password$/);
    await a11y(page, '/user/reset-password');
    await page.getByLabel('Email address').fill('reliability-engineer@example.com');
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(MSG.resetMailSent)).toBeVisible();
    await page.getByRole('button', { name: MSG.toLoginPage }).click();

    const mail = (await mailsTo('reliability-engineer@example.com')).at(-1);
    const temp = /Temporary password: (\S+)/.exec(mail?.text ?? '')?.[1];
    expect(temp, 'the mail carries a temporary password').toBeTruthy();
    await signIn(page, 'reliability-engineer@example.com', temp!);
    // the temporary password must be changed first; nothing else opens until then
    await expect(page).toHaveURL(/\/user\/settings\?form=password&first=1$/);
    await expect(page.getByText(API_ERR.mustChangePassword)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(0);
    await a11y(page, '/user/settings (password to change)');
    await shoot(page, 'must-change-password');
    await page.goto('/packages');
    await expect(page).toHaveURL(/\/user\/settings\?form=password&first=1$/);
    // the new password is the seeded one again, for the other journeys
    await page.getByLabel('Old password').fill(temp!);
    await page.getByLabel('New password', { exact: true }).fill(SEED_PASSWORD);
    await page.getByLabel('Repeat new password').fill(SEED_PASSWORD);
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page.getByText(MSG.settingsSaved)).toBeVisible();
    await page.getByRole('button', { name: MSG.close }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PACKAGES' }),
    ).toBeVisible();
  });

  test("an unknown email on the reset page shows 'Login is incorrect'", async ({ page }) => {
    await page.goto('/user/reset-password');
    await page.getByLabel('Email address').fill('nobody-here@example.com');
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(MSG.resetUserNotFoundShownAs)).toBeVisible();
  });

  test("the session expires when the token is revoked: the next call shows 'Session timeout. Please login.'", async ({
    page,
  }) => {
    await signIn(page, 'technical-leader@example.com');
    await expect(page).toHaveURL(/\/home$/);
    // the home page's own calls (what waits for this user) must be answered before the token is revoked:
    // one still in flight would get the 401 and show the popup over the page before PATCHES is clicked
    await expect(page.getByRole('region', { name: /^Waiting for you/ })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    const token = (await page.context().cookies()).find((c) => c.name === 'token')!.value;
    const r = await fetch(apiUrl('/user/logout'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PATCHES' }).click();
    await expect(page.getByText(MSG.sessionTimeout)).toBeVisible();
    await page.getByRole('button', { name: MSG.toLoginPage }).click();
    // the login page keeps where the user was, to return there after signing in (decision 156)
    await expect(page).toHaveURL(/\/login\?next=%2Fpatches$/);
  });
});
