import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';

/** Journeys run against the stack of global-setup.ts; its URL arrives in the environment. */
export const test = base.extend<{ a11y: (page: Page, label: string) => Promise<void> }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  a11y: async ({}, use) => {
    await use(async (page, label) => {
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
        `accessibility of ${label}`,
      ).toEqual([]);
    });
  },
});
export { expect };

export const mailboxUrl = (): string => process.env.E2E_MAILBOX_URL!;
export const apiUrl = (path: string): string => `${process.env.E2E_BASE_URL}/dev${path}`;

/** An API call of a journey's setup; anything but a 2xx throws with the answer. */
export async function apiCall<T = Record<string, string>>(
  path: string,
  token: string | null,
  init: RequestInit = {},
) {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (typeof init.body === 'string') headers['Content-Type'] = 'application/json';
  const r = await fetch(apiUrl(path), { ...init, headers });
  const body = (await r.json()) as T;
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

/** A seeded user's session token. */
export const apiTokenOf = async (email: string) =>
  (
    await apiCall('/user/login', null, {
      method: 'POST',
      body: JSON.stringify({ login: email, password: SEED_PASSWORD }),
    })
  ).token!;

/** Signs in through the login form. */
export async function signIn(page: Page, email: string, password = SEED_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Submit' }).click();
}

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

/** Mails the local SES received for an address, newest last. */
export async function mailsTo(address: string): Promise<{ subject: string; text: string }[]> {
  const res = await fetch(`${mailboxUrl().replace(/\/$/, '')}/store`);
  const store = (await res.json()) as { emails: StoredMail[] };
  return store.emails
    .filter((m) => m.destination.to.includes(address))
    .map((m) => ({ subject: m.subject, text: m.body.text ?? '' }));
}

/**
 * On /admin/users as a signed-in admin: selects the user `rowLabel` ('Name (email)') found by `email`,
 * presses Grant, signs in the signature dialog and closes the success popup (the first admin's
 * grant proposes, a second admin's confirms). Returns the dialog's text, which says what the grant does.
 */
export async function grantOnUsersScreen(page: Page, email: string, rowLabel: string) {
  await page.getByLabel('Search').fill(email);
  await page.getByRole('checkbox', { name: `Select ${rowLabel}` }).check();
  await page.getByRole('button', { name: /^Grant/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign: Grant roles' });
  await expect(dialog).toBeVisible();
  const text = (await dialog.textContent()) ?? '';
  await dialog.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  return text;
}

/** Signs out through the account menu. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
