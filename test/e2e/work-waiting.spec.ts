import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { policyApprovers } from './policy-approvers';
import { apiUrl, expect, mailsTo, test } from './support';

/**
 * an approver follows the link of the approval mail while signed out, signs in and lands on
 * the package, ready to decide; their home page lists it under "Waiting for you". With SHOTS_DIR set,
 * the home page is photographed empty and with work at 1366×768 and 1920×1080.
 */
const LEAD = 'technical-leader@example.com';
const INITIATOR = 'design-engineer-dev@example.com';
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

async function call<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: FormData | string | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(apiUrl(path), { method: init.method ?? 'GET', headers, body });
  return { status: res.status, body: (await res.json()) as T };
}

async function must<T = Record<string, unknown>>(
  what: string,
  path: string,
  init: Parameters<typeof call>[1],
  status = 200,
): Promise<T> {
  const r = await call<T>(path, init);
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const tokenOf = async (email: string) =>
  (
    await must<{ token: string }>('login', '/user/login', {
      method: 'POST',
      body: { login: email, password: SEED_PASSWORD },
    })
  ).token;

/** A release package by the dev design engineer, with a DCC, sent to one approver per role. */
async function notifiedPackage(name: string): Promise<string> {
  const token = await tokenOf(INITIATOR);
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(2048))]), `${name}.bin`);
  const { resource } = await must<{ resource: string }>(
    'upload',
    `/resources/patch/release?name=${encodeURIComponent(name)}`,
    { method: 'POST', token, body: form },
    201,
  );
  const resourceId = (JSON.parse(resource) as { id: string }).id;
  const created = await must<{ package: string }>(
    'generate',
    `/resources/${resourceId}/generate-package`,
    {
      method: 'POST',
      token,
      body: { packageName: name, packageType: 'RELEASE_UNSIGNED', note: 'Occlusion alarm threshold fix' },
    },
    201,
  );
  const id = (JSON.parse(created.package) as { id: string }).id;
  const { dccUuid } = await must<{ dccUuid: string }>(
    'dcc',
    '/dcc',
    {
      method: 'POST',
      token,
      body: { deviceId: `dev-${name}`, telemetryType: 'TelA', messageLimit: 64, deviceLimit: 4096 },
    },
    201,
  );
  await must('attach', `/packages/${id}/dcc/${dccUuid}`, { method: 'POST', token });
  const { approvers } = await must<{ approvers: string }>('approvers', `/packages/${id}/approvers`, {
    token,
  });
  const byRole = JSON.parse(approvers) as Record<string, { id: string; email: string }[]>;
  const pick = (role: string, email: string) => {
    const user = byRole[role]?.find((u) => u.email === email);
    if (!user) throw new Error(`no ${role} ${email} among the candidates`);
    return { role, id: user.id };
  };
  await must('notify', `/packages/${id}/notify-approvers`, {
    method: 'POST',
    token,
    body: {
      // the seeded approvers the policy asks for (decision 272)
      approvers: policyApprovers('RELEASE_UNSIGNED').map((a) => pick(a.role, a.email)),
    },
  });
  return id;
}

/** The link of the mail, once it arrived (workflow mail leaves through the outbox). */
async function linkOfMail(to: string, subject: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await mailsTo(to)).find((m) => m.subject === subject);
        link = mail?.text.match(/Open it here: (\S+)/)?.[1];
        return link;
      },
      { message: `no mail '${subject}' to ${to}`, timeout: 30_000 },
    )
    .toBeDefined();
  return link!;
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(dir, `${name}-${size.width}x${size.height}.png`), fullPage: false });
  }
}

async function fillSignIn(page: Page, email: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
}

test.describe('work waiting', () => {
  test('an approver follows the mail link signed out, signs in and lands on the package', async ({
    page,
    browser,
    a11y,
  }) => {
    test.setTimeout(180_000);
    const waiting = page.getByRole('region', { name: /^Waiting for you/ });

    // before, in a browser of its own: the approver's home page (empty on a fresh stack)
    const before = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const early = await before.newPage();
    await early.goto('/login');
    await fillSignIn(early, LEAD);
    await expect(early).toHaveURL(/\/home$/);
    await expect(early.getByRole('region', { name: /^Waiting for you/ })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await expect(early.getByText('Inspiring the extraordinary')).toBeVisible();
    await shoot(early, 'home-empty');
    await before.close();

    const name = `links-${Date.now().toString(36)}`;
    const id = await notifiedPackage(name);
    const link = await linkOfMail(LEAD, `Approval requested: package ${name}`);
    expect(new URL(link).pathname).toBe(`/packages/open/${id}`);

    // signed out, the link goes to the login page, which keeps it
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(link);
    await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/packages/open/${id}`)}$`));
    await fillSignIn(page, LEAD);

    // … and after sign-in opens the package on the approval page, ready to decide
    await expect(page).toHaveURL(/\/packages\/approve\/view$/);
    await expect(page.getByRole('heading', { level: 1, name: 'APPROVE RELEASE PACKAGE' })).toBeVisible();
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await a11y(page, 'the package opened from the mail');

    // the home page lists it under "Waiting for you"; its row opens the same page
    // (the mail's link names the portal's address, localhost; the stack also answers on 127.0.0.1)
    await page.goto(new URL('/home', link).toString());
    await expect(waiting).toHaveAttribute('aria-busy', 'false');
    const row = waiting.getByRole('link', { name: `Approve or reject: ${name}` });
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute('href', `/packages/open/${id}`);
    await a11y(page, '/home with work waiting');
    await shoot(page, 'home-work');
    await page.setViewportSize({ width: 1366, height: 768 });
    await row.click();
    await expect(page).toHaveURL(/\/packages\/approve\/view$/);
    await expect(page.getByRole('heading', { level: 1, name: 'APPROVE RELEASE PACKAGE' })).toBeVisible();

    // the approval list opens on Release, the first tab with work, and counts it
    await page.goto(new URL('/packages/approve', link).toString());
    await expect(page.getByRole('tab', { name: /^Release \d+$/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  });
});
