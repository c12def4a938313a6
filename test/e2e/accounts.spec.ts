import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { apiUrl, expect, mailsTo, signIn, test } from './support';

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('accounts', () => {
  test('a newcomer registers, signs in, sees the tabs of their role, edits profile and password, and signs out', async ({
    page,
    a11y,
  }) => {
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

    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: MSG.submit }).click();
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
    await expect(page).toHaveURL(/\/home$/);
    // the temporary password became the password: put the seeded one back for the other journeys
    const token = (await page.context().cookies()).find((c) => c.name === 'token')!.value;
    const r = await fetch(apiUrl('/user/password'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ oldPassword: temp, newPassword: SEED_PASSWORD }),
    });
    expect(r.status).toBe(200);
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
    const token = (await page.context().cookies()).find((c) => c.name === 'token')!.value;
    const r = await fetch(apiUrl('/user/logout'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PATCHES' }).click();
    await expect(page.getByText(MSG.sessionTimeout)).toBeVisible();
    await page.getByRole('button', { name: MSG.toLoginPage }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
