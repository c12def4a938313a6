import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { apiUrl, expect, signIn, test } from './support';

const SHOTS = process.env.ACCESS_TOKEN_SHOTS ?? 'test-results/e2e/access-tokens';

/**
 * a design engineer makes an access token in Settings, a pipeline (scripts/pipeline.ts, the CLI
 * of docs/pipelines.md) uploads with it and creates a draft with its header as code, the engineer sees
 * the pipeline-made draft, and revokes the token in one click: the pipeline is refused from then on.
 */
test('a token made in settings drives the pipeline; its draft is seen, and one click revokes it', async ({
  page,
  a11y,
}) => {
  const tokenName = `ci-pump-${Date.now().toString(36)}`;
  await signIn(page, 'design-engineer-dev@example.com');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/user/settings?form=tokens');
  await page.getByLabel('Token name').fill(tokenName);
  await page.getByLabel('Expires in (days)').fill('14');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = await page.getByLabel('Access token', { exact: true }).inputValue();
  expect(secret).toMatch(/^frp_[0-9a-f]{16}_/);
  const row = page.getByRole('row').filter({ hasText: tokenName });
  await expect(row).toContainText('ACTIVE');
  await expect(row).toContainText('resources:upload, packages:draft');
  await a11y(page, 'settings: access tokens');

  // the pipeline step, as a CI job runs it
  const dir = mkdtempSync(join(tmpdir(), 'e2e-pipeline-'));
  const file = join(dir, 'pump-fw.bin');
  writeFileSync(file, Buffer.alloc(64 * 1024, 0x42));
  const packageName = `pipeline-draft-${Date.now().toString(36)}`;
  const cli = (token: string) =>
    promisify(execFile)(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'),
        'scripts/pipeline.ts',
        '--url',
        process.env.E2E_BASE_URL!,
        '--file',
        file,
        '--resource-name',
        `pump-fw-${Date.now().toString(36)}`,
        '--stage',
        'dev',
        '--package-name',
        packageName,
        '--package-type',
        'DEV_UNSIGNED',
        '--note',
        'CI build 900',
        '--header',
        'docs/examples/header.json',
      ],
      { env: { ...process.env, FRP_TOKEN: token } },
    );
  try {
    const { stdout } = await cli(secret);
    const link = stdout.trim().split('\n').at(-1)!;
    await page.goto(link);
    await expect(page.getByText(packageName).first()).toBeVisible();
    await expect(page.getByText(`(access token '${tokenName}')`).first()).toBeVisible();

    await page.goto('/user/settings?form=tokens');
    await expect(row).toContainText('ACTIVE');
    await page.screenshot({ path: `${SHOTS}/settings-access-tokens.png`, fullPage: true });
    await row.getByRole('button', { name: `Revoke ${tokenName}` }).click();
    await expect(row).toContainText('REVOKED');
    await expect(row.getByRole('button')).toHaveCount(0);
    await expect(cli(secret)).rejects.toMatchObject({ stderr: expect.stringContaining('revoked') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** One JSON call to the API as the browser's user would make it. */
async function call<T>(path: string, body: unknown, token?: string): Promise<T> {
  const r = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/**
 * Decision 334: a password change ends the owner's tokens for good. The engineer's password is changed and
 * changed back (so the seeded password still signs in); the token stays ended, and the list says why and when.
 */
test('a token ended by a password change says so in the list, for good', async ({ page, a11y }) => {
  const tokenName = `ci-ended-${Date.now().toString(36)}`;
  const email = 'design-engineer-dev@example.com';
  await signIn(page, email);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/user/settings?form=tokens');
  await page.getByLabel('Token name').fill(tokenName);
  await page.getByRole('button', { name: 'Create token' }).click();
  const row = page.getByRole('row').filter({ hasText: tokenName });
  await expect(row).toContainText('ACTIVE');

  const { token } = await call<{ token: string }>('/user/login', { login: email, password: SEED_PASSWORD });
  const interim = 'Interim-Pass-334-e2e';
  const changed = await call<{ token: string }>(
    '/user/password',
    { oldPassword: SEED_PASSWORD, newPassword: interim },
    token,
  );
  await call('/user/password', { oldPassword: interim, newPassword: SEED_PASSWORD }, changed.token);

  // the change ended this browser's session too: sign in again and look
  await signIn(page, email);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/user/settings?form=tokens');
  await expect(row).toContainText('ENDED');
  await expect(row).toContainText(/ended: the owner's password was changed on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(row.getByRole('button')).toHaveCount(0);
  await a11y(page, 'settings: an ended access token');
  for (const [width, height] of [
    [1366, 768],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/settings-access-token-ended-${width}.png`, fullPage: true });
  }
});
