import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { policyApprovers } from './policy-approvers';
import { apiUrl, expect, signIn, test } from './support';

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
/** The seeded approvers of a signed release package, in the policy's order (decision 272). */
const APPROVERS = policyApprovers('RELEASE_SIGNED').map((a) => a.email);
const ROLE_LABELS = policyApprovers('RELEASE_SIGNED').map((a) => a.label);
const METADATA = JSON.stringify({ modelName: 'apnea-detector', version: '3.1.0' });
const MODEL = Buffer.concat([Buffer.from([0x1c, 0, 0, 0]), Buffer.from('TFL3'), Buffer.alloc(16_000, 7)]);

/** A signed-in page in its own browser context (each person has their own session). */
async function as(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
  await page.getByRole('button', { name: MSG.submit }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

const closePopup = (page: Page) => page.locator('.frp-dialog button').last().click();

/** Types the seeded password into the signature dialog (decision 141) and presses its action. */
async function signInDialog(page: Page, action: string) {
  const dialog = page.getByRole('dialog', { name: `Sign: ${action}` });
  await dialog.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await expect(dialog).toBeHidden();
}

async function openRow(page: Page, listPath: string, tab: string, name: string) {
  await page.goto(listPath);
  await page.getByRole('tab', { name: tab }).click();
  await page
    .getByRole('row', { name: new RegExp(name) })
    .first()
    .click();
}

test.describe('model packages', () => {
  test('a model goes from upload through approval and signing to a downloaded package that verifies', async ({
    page,
    browser,
  }) => {
    test.setTimeout(600_000);
    const model = unique('apnea-net');
    const deviceId = unique('VENT-9');
    await signIn(page, 'design-engineer-dev@example.com');
    await expect(page).toHaveURL(/\/home$/);

    // upload a release model: the .tflite and its metadata file
    await page.goto('/upload');
    await page.getByRole('tab', { name: MSG.tabModel }).click();
    await expect(page.getByRole('heading', { name: MSG.uploadModelHeading })).toBeVisible();
    await page.getByRole('button', { name: 'Release' }).click();
    await page.getByLabel(MSG.modelNameLabel).fill(model);
    await page.getByLabel('Model file').setInputFiles({
      name: `${model}.tflite`,
      mimeType: 'application/octet-stream',
      buffer: MODEL,
    });
    await page.getByLabel('Metadata file').setInputFiles({
      name: `${model}.json`,
      mimeType: 'application/json',
      buffer: Buffer.from(METADATA),
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByText(MSG.uploaded)).toBeVisible();
    await closePopup(page);

    // create a signed release package from it
    await page.goto('/models');
    await page.getByRole('tab', { name: 'Release' }).click();
    await page.getByRole('row', { name: new RegExp(model) }).click();
    await page.getByRole('button', { name: MSG.createPackage }).click();
    await expect(page).toHaveURL(/\/packages\/create$/);
    await page.getByText('Sign?', { exact: true }).click();
    await expect(page.getByLabel('Sign?')).toBeChecked();
    await page.getByLabel('Note').fill('Apnea model retrained on the 2026 cohort');
    const name = await page.getByLabel('Package name').inputValue();
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/header$/);
    const headerTable = page.getByRole('table', { name: 'Package header' });
    await headerTable.waitFor();
    // the server filled in the patch config's size: the metadata file's bytes
    await expect(headerTable.getByRole('row', { name: /Patch Config Size/ })).toContainText(
      String(Buffer.byteLength(METADATA)),
    );
    await page.getByLabel('Package Id (decimal)').fill('515');
    await page.getByRole('button', { name: MSG.continue }).click();

    // a new DCC, four approvers and the signer
    await expect(page).toHaveURL(/\/packages\/dcc$/);
    await page.getByRole('button', { name: 'Create new DCC' }).click();
    await page.getByLabel('Device ID').fill(deviceId);
    await page.getByLabel('Message limit').fill('256');
    await page.getByLabel('Device limit').fill('4096');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page).toHaveURL(/\/packages\/dcc$/);
    // the new DCC comes back selected
    await page.getByRole('row', { name: new RegExp(deviceId) }).waitFor();
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/notify-approvers$/);
    for (const role of ROLE_LABELS) await page.getByLabel(role, { exact: true }).selectOption({ index: 1 });
    await page.getByLabel('Signer').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Notify' }).click();
    await expect(page.getByText(MSG.notified)).toBeVisible();
    await closePopup(page);

    // every approver approves; the last hands over to the signer
    for (const [i, email] of APPROVERS.entries()) {
      const approver = await as(browser, email);
      await openRow(approver, '/packages/approve', 'Release', name);
      await approver.getByRole('button', { name: MSG.continue }).click();
      await approver.getByRole('table', { name: 'Package header' }).waitFor();
      await approver.getByRole('button', { name: 'Approve' }).click();
      await signInDialog(approver, 'Approve');
      await expect(
        approver.getByText(i < APPROVERS.length - 1 ? MSG.approvedWaiting : MSG.approvedWaitingSigning),
      ).toBeVisible();
      await approver.context().close();
    }

    // the signer signs and downloads; the package verifies against the portal's key
    const signer = await as(browser, 'sw-fw-release-engineer@example.com');
    await openRow(signer, '/packages/sign', 'Release', name);
    await signer.getByRole('button', { name: MSG.continue }).click();
    await signer.getByRole('button', { name: 'Sign' }).click();
    await signInDialog(signer, 'Sign');
    await expect(signer).toHaveURL(/\/packages\/download$/);
    await expect(signer.getByText('Success!')).toBeVisible();
    const [download] = await Promise.all([
      signer.waitForEvent('download'),
      signer.getByRole('button', { name: 'Download' }).click(),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'e2e-model-'));
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const key = (await (await fetch(apiUrl('/signing-key'))).json()) as { publicKeyPem: string };
    writeFileSync(join(dir, 'key.pem'), key.publicKeyPem);
    const root = resolve(import.meta.dirname, '..', '..');
    const report = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'scripts/verify.ts'),
        file,
        '--key',
        join(dir, 'key.pem'),
        '--extract',
        join(dir, 'x'),
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(report).toContain('VERDICT: VALID');
    expect(readFileSync(join(dir, 'x', 'patch-config.bin'), 'utf8')).toBe(METADATA);
    expect(readFileSync(join(dir, 'x', 'payload.bin')).equals(MODEL)).toBe(true);
    await signer.context().close();
  });
});
