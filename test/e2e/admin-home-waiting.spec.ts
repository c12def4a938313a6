import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { apiUrl, expect, mailsTo, signIn, test } from './support';

/**
 * the admin home says what waits. A newcomer registers and confirms the address; the admin's
 * home then shows the request under "Role requests" with its count, the newcomer's name, address and the
 * role asked for, as a link to the users list, where waiting accounts come first and a Refuse with nothing
 * selected looks disabled. At 1366×768, with axe and a screenshot (SHOTS_DIR, e.g. docs/screenshots).
 */
test.use({ viewport: { width: 1366, height: 768 } });

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/e2e/admin-home-waiting';
const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function post(path: string, body: unknown) {
  const r = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

test('the admin home shows a waiting role request with its count and a link to decide it', async ({
  page,
  a11y,
}) => {
  const email = `${unique('rita-reliable')}@example.com`;
  const password = 'Newcomer-Reliab-1';
  expect(
    (
      await post('/user/register', {
        name: 'Rita Reliable',
        email,
        password,
        userRole: 'RELIABILITY_ENGINEER',
      })
    ).status,
  ).toBe(201);
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec((await mailsTo(email)).at(-1)?.text ?? '')?.[1];
  expect((await post('/user/confirm-email', { token, password })).status).toBe(200);

  await signIn(page, 'admin@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  const waiting = page.getByRole('region', { name: /^Waiting for administrators/ });
  await expect(waiting).toHaveAttribute('aria-busy', 'false');
  // the count of decisions in the heading, and a sentence that says what waits
  await expect(waiting.getByRole('heading', { level: 2 })).toContainText(
    /Waiting for administrators\s*[1-9]/,
  );
  await expect(waiting).toContainText(/[1-9]\d* decisions? waits? for you: [1-9]\d* role requests?/);
  const requests = waiting.getByRole('region', { name: /^Role requests [1-9]/ });
  await expect(requests).toBeVisible();
  const link = requests.getByRole('link', {
    name: `Grant or refuse: Rita Reliable (${email}), asks for Reliability Engineer`,
  });
  // the home lists at most a few per kind; the newest newcomer may be among the "more" on a busy stack
  const listed = (await link.count()) > 0;
  if (listed) await expect(link).toContainText('Grant or refuse');
  else await expect(requests).toContainText(/and \d+ more in the users list/);
  await a11y(page, '/admin home with a waiting request');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'admin-home-waiting.png') });

  // the link opens the users list, where what waits comes first: the newcomer is on page 1 unsearched
  await (listed ? link : waiting.getByRole('link', { name: 'Open the users list to decide' })).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const table = page.getByRole('table', { name: 'Select user' });
  await expect(table.getByRole('row').nth(1)).toContainText(/Requested|Proposed|proposed/);
  // Refuse with nothing selected is disabled and looks it
  const refuse = page.getByRole('button', { name: /^Refuse/ });
  await expect(refuse).toBeDisabled();
  expect(await refuse.evaluate((b) => b.ownerDocument.defaultView?.getComputedStyle(b).opacity)).toBe('0.5');
  await a11y(page, '/admin/users, waiting accounts first');
});
