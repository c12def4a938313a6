import type { BrowserContext, Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { signatureMeaning } from '../../shared/domain/signature-meanings';
import { MSG } from '../../shared/messages';
import { passkeySteps } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { apiUrl, expect, mailsTo, test } from './support';

/**
 * Passkeys in Chromium (decision 322): a virtual authenticator of the DevTools WebAuthn domain (user
 * verification on) stands in for a laptop's platform authenticator. The page is opened on localhost, the
 * local stack's relying party (an IP address is never an RP id).
 */
const LOCAL = process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
test.use({ baseURL: LOCAL });

const SHOTS = process.env.H34P_SHOTS ?? 'test-results/e2e/passkeys';
const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function call<T = Record<string, string>>(path: string, token: string | null, init: RequestInit = {}) {
  const r = await fetch(apiUrl(path), {
    ...init,
    headers: {
      ...(typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  const body = (await r.json()) as T & { errorMessage?: string };
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}
const post = (path: string, token: string | null, body: unknown) =>
  call(path, token, { method: 'POST', body: JSON.stringify(body) });
const tokenOf = async (email: string, password = SEED_PASSWORD) =>
  (await post('/user/login', null, { login: email, password })).token!;

/** A new Technical Leader, registered, confirmed by the mailed link and granted by the two seeded admins. */
async function newcomer(password: string) {
  const email = `${unique('pat-passkey')}@example.com`;
  const user = JSON.parse(
    (
      await post('/user/register', null, {
        name: 'Pat Passkey',
        email,
        password,
        userRole: 'TECHNICAL_LEADER',
      })
    ).user!,
  ) as { id: string };
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec((await mailsTo(email)).at(-1)?.text ?? '')?.[1];
  await post('/user/confirm-email', null, { token, password });
  for (const admin of ['admin@example.com', 'admin-2@example.com'])
    await post('/admin/users/roles', await tokenOf(admin), { grant: [user.id], password: SEED_PASSWORD });
  return { id: user.id, email };
}

/** A development package of the seeded design engineer, sent for approval with `approverId` as Technical Leader. */
async function packageFor(approverId: string) {
  const dev = await tokenOf('design-engineer-dev@example.com');
  const patch = unique('passkey-patch');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(4096).fill(3)]), `${patch}.bin`);
  const res = JSON.parse(
    (await call(`/resources/patch/dev?name=${patch}`, dev, { method: 'POST', body: form })).resource!,
  ) as { id: string };
  const pkg = JSON.parse(
    (
      await post(`/resources/${res.id}/generate-package`, dev, {
        packageName: unique('Passkey approval'),
        packageType: 'DEV_UNSIGNED',
        note: 'Approved with a passkey',
      })
    ).package!,
  ) as { id: string; name: string };
  const dcc = (
    await post('/dcc', dev, {
      deviceId: unique('PK-DEV'),
      telemetryType: 'TelB',
      messageLimit: 64,
      deviceLimit: 4096,
    })
  ).dccUuid;
  await call(`/packages/${pkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const candidates = JSON.parse((await call(`/packages/${pkg.id}/approvers`, dev)).approvers!) as Record<
    string,
    { id: string }[]
  >;
  await post(`/packages/${pkg.id}/notify-approvers`, dev, {
    approvers: Object.entries(candidates).map(([role, users]) => ({
      role,
      id: role === 'TECHNICAL_LEADER' ? approverId : users[0]!.id,
    })),
  });
  return pkg;
}

/** Shoots the page at both sizes, after checking that nothing on it runs wider than the window. */
async function shoot(page: Page, name: string) {
  for (const [w, h] of [
    [1366, 768],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // a string runs in the page (this file compiles without the DOM's types)
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow, `${name} at ${w}×${h} runs wider than the window`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/${name}-${w}x${h}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/**
 * A virtual authenticator of the DevTools WebAuthn domain with user verification; `presence` false: it
 * waits for a touch that never comes (the page stays at its passkey prompt).
 */
async function virtualAuthenticator(context: BrowserContext, page: Page, presence = true) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: presence,
    },
  });
  return { cdp, authenticatorId };
}

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
  await page.goto('/packages/approve');
  await page.getByRole('tab', { name: 'Development' }).click();
  await page.getByRole('row', { name: new RegExp(pkg.name) }).click();
  await expect(page).toHaveURL(/\/packages\/approve\/view$/);
  await page.getByRole('button', { name: MSG.continue }).click();
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  await page.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign: Approve' });
  await expect(dialog).toContainText(signatureMeaning('approve', 'DEV_UNSIGNED'));
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
