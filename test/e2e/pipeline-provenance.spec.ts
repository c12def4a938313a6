import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiCall, apiTokenOf, expect, signIn, signOut, test } from './support';

const SHOTS = process.env.PIPELINE_PROVENANCE_SHOTS ?? 'test-results/e2e/pipeline-provenance';

/**
 * a design engineer makes an access token in Settings; the pipeline step (scripts/pipeline.ts)
 * uploads with it and attaches the build provenance and the SBOM before drafting; once the draft is sent
 * for approval, the approver sees the commit, the build link and the SBOM's component count on the review
 * page. The engineer revokes the token in Settings and the pipeline is refused from then on.
 */

const call = apiCall;
const tokenOf = apiTokenOf;

test.use({ viewport: { width: 1366, height: 768 } });

test('a pipeline-made draft carries its provenance and SBOM to the approver; revoking the token stops the pipeline', async ({
  page,
  a11y,
}) => {
  const stamp = Date.now().toString(36);
  const tokenName = `ci-prov-${stamp}`;
  await signIn(page, 'design-engineer-dev@example.com');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/user/settings?form=tokens');
  await page.getByLabel('Token name').fill(tokenName);
  await page.getByLabel('Expires in (days)').fill('7');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = await page.getByLabel('Access token', { exact: true }).inputValue();
  const row = page.getByRole('row').filter({ hasText: tokenName });
  await expect(row).toContainText('ACTIVE');

  const dev = await tokenOf('design-engineer-dev@example.com');
  const deviceId = `PROV-${stamp}`;
  const dccId = (
    await call('/dcc', dev, {
      method: 'POST',
      body: JSON.stringify({ deviceId, telemetryType: 'TelA', messageLimit: 64, deviceLimit: 1024 }),
    })
  ).dccUuid!;

  const dir = mkdtempSync(join(tmpdir(), 'e2e-provenance-'));
  const file = join(dir, 'pump-fw.bin');
  writeFileSync(file, Buffer.alloc(32 * 1024, 0x21));
  const packageName = `provenance-draft-${stamp}`;
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
        'CI build 812',
        '--header',
        'docs/examples/header.json',
        '--dcc',
        dccId,
        '--provenance',
        'docs/examples/provenance.json',
        '--sbom',
        'docs/examples/sbom.cdx.json',
      ],
      { env: { ...process.env, FRP_TOKEN: token } },
    );
  try {
    const { stdout } = await cli(secret);
    const link = stdout.trim().split('\n').at(-1)!;
    const packageId = decodeURIComponent(link.split('/').at(-1)!);

    // the engineer sends it for approval (a person notifies; tokens never do)
    const chosen = await call<{ approvers: string }>(`/packages/${packageId}/approvers`, dev);
    const candidates = JSON.parse(chosen.approvers) as Record<string, { id: string; email: string }[]>;
    const pick = (role: string, users: { id: string; email: string }[]) =>
      (role === 'TECHNICAL_LEADER'
        ? users.find((u) => u.email === 'technical-leader@example.com')
        : undefined) ?? users[0]!;
    await call(`/packages/${packageId}/notify-approvers`, dev, {
      method: 'POST',
      body: JSON.stringify({
        approvers: Object.entries(candidates).map(([role, users]) => ({ role, id: pick(role, users).id })),
      }),
    });

    await signOut(page);
    await signIn(page, 'technical-leader@example.com');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto(link);
    const card = page.getByRole('region', { name: 'Build provenance' });
    await expect(card.getByTitle('9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4')).toHaveText('9f2c1e7b4a5d');
    await expect(card.getByRole('link', { name: '812' })).toHaveAttribute(
      'href',
      'https://ci.example.com/pumps/pump-controller/builds/812',
    );
    const sbom = card.getByLabel('SBOM details');
    await expect(sbom).toContainText('CycloneDX 1.5');
    await expect(
      sbom.getByText('Components', { exact: true }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('4');
    await expect(card.getByRole('list', { name: 'Top-level components' })).toContainText('mbedtls 3.5.1');
    await expect(card.getByRole('button', { name: 'Download SBOM' })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/review-build-provenance.png`, fullPage: true });
    await a11y(page, 'review page: build provenance');

    // the engineer revokes the token in one click: the pipeline is refused from then on
    await signOut(page);
    await signIn(page, 'design-engineer-dev@example.com');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/user/settings?form=tokens');
    await row.getByRole('button', { name: `Revoke ${tokenName}` }).click();
    await expect(row).toContainText('REVOKED');
    await expect(cli(secret)).rejects.toMatchObject({ stderr: expect.stringContaining('revoked') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
