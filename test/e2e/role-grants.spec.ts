import { ROLE_GRANT_MEANINGS } from '../../shared/domain/role-grants';
import { apiUrl, expect, grantOnUsersScreen, mailsTo, signIn, signOut, test } from './support';

/**
 * no single person grants authority. A newcomer's role is proposed by one admin on the users
 * screen (signed), which changes nothing yet; a second admin confirms it there, and the newcomer can act.
 * At 1366×768, with screenshots of the users screen with a pending proposal and of the admin home's counts.
 */
test.use({ viewport: { width: 1366, height: 768 } });

const SHOTS = process.env.H23A_SHOTS ?? 'test-results/e2e/role-grants';
const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function post(path: string, body: unknown, token?: string) {
  const r = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

test('two admins grant a role on the users screen: one proposes, a second confirms, then the user acts', async ({
  page,
  a11y,
}) => {
  // a newcomer registers and confirms the address by the mailed link (the accounts journey does it by screen)
  const email = `${unique('lena-lead')}@example.com`;
  const password = 'Newcomer-Lead-1';
  const row = `Lena Lead (${email})`;
  expect(
    (await post('/user/register', { name: 'Lena Lead', email, password, userRole: 'TECHNICAL_LEADER' }))
      .status,
  ).toBe(201);
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec((await mailsTo(email)).at(-1)?.text ?? '')?.[1];
  expect((await post('/user/confirm-email', { token, password })).status).toBe(200);
  const session = String((await post('/user/login', { login: email, password })).body.token);
  const dcc = () =>
    post(
      '/dcc',
      { deviceId: unique('dev'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
      session,
    );
  expect((await dcc()).status).toBe(403);

  // the first admin: the home counts the request; the grant is a signed proposal, nothing in effect yet
  await signIn(page, 'admin@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  const waiting = page.getByRole('region', { name: /^Waiting for administrators/ });
  await expect(waiting.getByRole('heading', { level: 3, name: /^Role requests [1-9]/ })).toBeVisible();
  await page.getByRole('link', { name: 'Open the users list to decide' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const proposing = await grantOnUsersScreen(page, email, row);
  expect(proposing).toContain('Technical Leader: proposes the grant: a second admin must confirm it');
  expect(proposing).toContain(ROLE_GRANT_MEANINGS.proposeRole);
  await expect(page.getByRole('region', { name: 'What your last decision did' })).toContainText(
    `${row}: Proposed: waits for a second admin to confirm it`,
  );
  await page.getByLabel('Search').fill(email);
  await expect(page.getByText('Grant proposed by you; waits for a second admin')).toBeVisible();
  await a11y(page, '/admin/users with a proposal');
  await page.screenshot({ path: `${SHOTS}/admin-users-pending-proposal.png` });
  expect((await dcc()).status).toBe(403);
  await signOut(page);

  // the second admin: the home counts the proposal to confirm; the same Grant confirms it
  await signIn(page, 'admin-2@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(
    waiting.getByRole('heading', { level: 3, name: /^Grant proposals to confirm [1-9]/ }),
  ).toBeVisible();
  await a11y(page, '/admin home with counts');
  await page.screenshot({ path: `${SHOTS}/admin-home-counts.png` });
  await page.getByRole('link', { name: 'Open the users list to decide' }).click();
  await page.getByLabel('Search').fill(email);
  await expect(
    page.getByText('Grant proposed by Ada Admin (admin@example.com); waits for a second admin'),
  ).toBeVisible();
  const confirming = await grantOnUsersScreen(page, email, row);
  expect(confirming).toContain('confirms the proposal of Ada Admin: the role takes effect');
  expect(confirming).toContain(ROLE_GRANT_MEANINGS.confirmRole);
  await expect(page.getByRole('region', { name: 'What your last decision did' })).toContainText(
    `${row}: Granted: the role is in effect`,
  );
  await page.getByLabel('Search').fill(email);
  await expect(page.getByRole('cell', { name: 'Granted', exact: true })).toBeVisible();
  await signOut(page);

  // the user now acts in the role, and was told by mail
  expect((await dcc()).status).toBe(201);
  expect((await mailsTo(email)).map((m) => m.subject)).toContain(
    'Firmware Release Portal: your role Technical Leader was granted',
  );
});
