import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { PackageType } from '../../shared/api/contracts/packages';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import {
  SIGNATURE_MEANINGS,
  SIGNATURE_PASSWORD_WRONG,
  signatureMeaning,
} from '../../shared/domain/signature-meanings';
import { MSG } from '../../shared/messages';
import { policyApprovers } from './policy-approvers';
import { apiUrl, expect, mailsTo, signIn, test } from './support';

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
/** The seeded approvers of the policy, in its order (decision 272); delivery: all but the deliverer. */
const RELEASE = 'sw-fw-release-engineer@example.com';
const approvers = (type: PackageType) => policyApprovers(type).map((a) => a.email);
const roleLabels = (type: PackageType) => policyApprovers(type).map((a) => a.label);
const DELIVERY = policyApprovers('RELEASE_SIGNED', 'delivery', [RELEASE]);

/** A signed-in page in its own browser context (each person has their own session). */
async function as(browser: Browser, email: string, startAt = '/login'): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(startAt);
  await expect(page).toHaveURL(/\/login(\?next=.+)?$/);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
  await page.getByRole('button', { name: MSG.submit }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

const closePopup = (page: Page) => page.locator('.frp-dialog button').last().click();

/**
 * Signs the decision in the signature dialog (decision 141): its meaning is shown, the seeded password is
 * typed and the dialog's own action button pressed; the dialog closes once the server took the decision.
 */
async function signInDialog(page: Page, action: string, meaning: string, dialogName = `Sign: ${action}`) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toContainText(meaning);
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

/** Upload a patch, create a package from it, keep the header, create or pick a DCC, notify everyone. */
async function createAndNotify(
  page: Page,
  opts: { stage: 'Dev' | 'Release'; signed: boolean; patch: string; note: string },
) {
  await page.goto('/upload');
  if (opts.stage === 'Release') await page.getByRole('button', { name: 'Release' }).click();
  await page.getByLabel('Patch name').fill(opts.patch);
  await page.getByLabel('Patch file').setInputFiles({
    name: `${opts.patch}.bin`,
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(24_000, 9),
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(MSG.uploaded)).toBeVisible();
  await closePopup(page);

  await page.goto('/patches');
  await page.getByRole('tab', { name: opts.stage }).click();
  await page.getByRole('row', { name: new RegExp(opts.patch) }).click();
  await page.getByRole('button', { name: MSG.createPackage }).click();
  await expect(page).toHaveURL(/\/packages\/create$/);
  await expect(
    page.getByRole('heading', {
      name: opts.stage === 'Dev' ? 'GENERATE NEW DEVELOPMENT PACKAGE' : 'GENERATE NEW RELEASE PACKAGE',
    }),
  ).toBeVisible();
  if (opts.signed) {
    await page.getByText('Sign?', { exact: true }).click();
    await expect(page.getByLabel('Sign?')).toBeChecked();
  }
  await expect(page.getByRole('button', { name: MSG.continue })).toBeDisabled();
  await page.getByLabel('Note').fill(opts.note);
  const packageName = await page.getByLabel('Package name').inputValue();
  await page.getByRole('button', { name: MSG.continue }).click();
  await expect(page).toHaveURL(/\/packages\/header$/);
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  return packageName;
}

async function pickDccAndNotify(
  page: Page,
  opts: { type: PackageType; signed: boolean; createDcc?: string },
) {
  await expect(page).toHaveURL(/\/packages\/dcc$/);
  if (opts.createDcc) {
    await page.getByRole('button', { name: 'Create new DCC' }).click();
    await page.getByLabel('Device ID').fill(opts.createDcc);
    await page.getByLabel('Message limit').fill('12');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page.getByText(MSG.dccMessageLimit)).toBeVisible();
    await page.getByLabel('Message limit').fill('256');
    await page.getByLabel('Device limit').fill('128');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page.getByText(MSG.dccDeviceLimit)).toBeVisible();
    await page.getByLabel('Device limit').fill('4096');
    await page.getByRole('button', { name: MSG.save }).click();
    await expect(page).toHaveURL(/\/packages\/dcc$/);
    await page.getByRole('row', { name: new RegExp(opts.createDcc) }).waitFor();
  } else {
    await page.getByRole('row').nth(1).click();
  }
  await page.getByRole('button', { name: MSG.continue }).click();
  await expect(page).toHaveURL(/\/packages\/notify-approvers$/);
  for (const role of roleLabels(opts.type))
    await page.getByLabel(role, { exact: true }).selectOption({ index: 1 });
  if (opts.signed) await page.getByLabel('Signer').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Notify' }).click();
  await expect(page.getByText(MSG.notified)).toBeVisible();
  await closePopup(page);
  await expect(page).toHaveURL(/\/home$/);
}

async function approveFromList(page: Page, tab: string, name: string) {
  await openRow(page, '/packages/approve', tab, name);
  await expect(page).toHaveURL(/\/packages\/approve\/view$/);
  await page.getByRole('button', { name: MSG.continue }).click();
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  await page.getByRole('button', { name: 'Approve' }).click();
  const delivery = tab === 'Delivery';
  await signInDialog(
    page,
    delivery ? 'Approve delivery' : 'Approve',
    delivery
      ? SIGNATURE_MEANINGS.approveDelivery
      : signatureMeaning('approve', tab === 'Development' ? 'DEV_UNSIGNED' : 'RELEASE_SIGNED'),
  );
}

/** The design engineer signs in, creates an unsigned development package and sends it to every approver. */
async function unsignedDevPackageSentForApproval(page: Page, patchPrefix: string, note: string) {
  await signIn(page, 'design-engineer-dev@example.com');
  await expect(page).toHaveURL(/\/home$/);
  const name = await createAndNotify(page, { stage: 'Dev', signed: false, patch: unique(patchPrefix), note });
  await page.getByRole('button', { name: MSG.continue }).click();
  await pickDccAndNotify(page, { type: 'DEV_UNSIGNED', signed: false });
  return name;
}

test.describe('packages', () => {
  test('a signed release package goes from creation through approval, signing and delivery, with a verifiable download', async ({
    page,
    browser,
    a11y,
  }) => {
    test.setTimeout(600_000);
    const patch = unique('pump-fw');
    const deviceId = unique('IP-4000');
    await signIn(page, 'design-engineer-dev@example.com');
    await expect(page).toHaveURL(/\/home$/);

    const name = await createAndNotifyWithHeaderEdits(page, patch);
    await a11y(page, '/packages/dcc');
    await pickDccAndNotify(page, { type: 'RELEASE_SIGNED', signed: true, createDcc: deviceId });

    // each approver follows the link in their mail, signs in and approves, in the policy's order
    const APPROVERS = approvers('RELEASE_SIGNED');
    for (const [i, email] of APPROVERS.entries()) {
      // workflow mail leaves through the outbox shortly after the notify (decision 095)
      await expect
        .poll(async () => (await mailsTo(email)).some((m) => m.subject.includes(name)), { timeout: 15_000 })
        .toBe(true);
      const mail = (await mailsTo(email)).reverse().find((m) => m.subject.includes(name));
      const link = /(https?:\/\/\S+)/.exec(mail?.text ?? '')?.[1];
      expect(link, `${email} got a mail with a link`).toBeTruthy();
      const approver = await as(browser, email, new URL(link!).pathname);
      // the link opens the package itself, on the approval page
      await expect(approver).toHaveURL(/\/packages\/approve\/view$/);
      await expect(
        approver.getByRole('heading', { level: 1, name: 'APPROVE RELEASE PACKAGE' }),
      ).toBeVisible();
      if (i === 0) await a11y(approver, '/packages/approve/view');
      await approver.getByRole('button', { name: MSG.continue }).click();
      await approver.getByRole('table', { name: 'Package header' }).waitFor();
      if (i === 0) await a11y(approver, '/packages/header/view');
      await approver.getByRole('button', { name: 'Approve' }).click();
      if (i === 0) {
        // a wrong password is said in the dialog, which stays open with the password cleared
        const dialog = approver.getByRole('dialog', { name: 'Sign: Approve' });
        await expect(dialog).toContainText(policyApprovers('RELEASE_SIGNED')[0]!.label);
        await dialog.getByLabel(/^Your password/).fill('not-my-password');
        await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
        await expect(dialog.getByRole('alert')).toHaveText(SIGNATURE_PASSWORD_WRONG);
        await expect(dialog.getByLabel(/^Your password/)).toHaveValue('');
        await a11y(approver, 'signature dialog');
      }
      await signInDialog(approver, 'Approve', SIGNATURE_MEANINGS.approve);
      // the last approval waits for the signature; the ones before for the other approvers (read once the
      // popup holds its message, not at its first frame)
      await expect(approver.locator('.frp-dialog')).toContainText(
        i === APPROVERS.length - 1 ? MSG.approvedWaitingSigning : MSG.approvedWaiting,
      );
      await approver.context().close();
    }

    // the signer signs; the download page offers the XML; its signature verifies
    const signer = await as(browser, 'sw-fw-release-engineer@example.com');
    await openRow(signer, '/packages/sign', 'Release', name);
    await expect(signer).toHaveURL(/\/packages\/sign\/view$/);
    await signer.getByRole('button', { name: MSG.continue }).click();
    await signer.getByRole('button', { name: 'Sign' }).click();
    await signInDialog(signer, 'Sign', SIGNATURE_MEANINGS.sign);
    await expect(signer).toHaveURL(/\/packages\/download$/);
    await expect(signer.getByRole('heading', { name: 'GENERATED NEW SIGNED RELEASE PACKAGE' })).toBeVisible();
    // the Generation region (the package strip also shows the state 'Generating…' since the state words were added)
    await expect(signer.getByRole('region', { name: 'Generation' }).getByText('Generating…')).toBeVisible();
    await expect(signer.getByText('Success!')).toBeVisible({ timeout: 30_000 });
    await a11y(signer, '/packages/download');
    const [download] = await Promise.all([
      signer.waitForEvent('download'),
      signer.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xml$/);
    const dir = mkdtempSync(join(tmpdir(), 'e2e-download-'));
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const key = (await (await fetch(apiUrl('/signing-key'))).json()) as { publicKeyPem: string };
    writeFileSync(join(dir, 'key.pem'), key.publicKeyPem);
    const root = resolve(import.meta.dirname, '..', '..');
    const report = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'scripts/verify.ts'), file, '--key', join(dir, 'key.pem')],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(report).toMatch(/PASS/);
    expect(report).not.toMatch(/FAIL/);

    // a release engineer delivers
    await openRow(signer, '/packages', 'Release', name);
    await expect(signer).toHaveURL(/\/packages\/release\/view$/);
    await signer.getByRole('button', { name: 'Deliver' }).click();
    await signer.getByRole('button', { name: MSG.continue }).click();
    await expect(signer).toHaveURL(/\/packages\/notify-approvers$/);
    for (const { label } of DELIVERY)
      await signer.getByLabel(label, { exact: true }).selectOption({ index: 1 });
    await signer.getByRole('button', { name: 'Notify' }).click();
    await signInDialog(signer, 'Deliver', SIGNATURE_MEANINGS.deliver);
    await expect(signer.getByText(MSG.notified)).toBeVisible();
    await closePopup(signer);

    // one delivery approver rejects with a reason
    const rejecter = await as(browser, 'reliability-engineer@example.com');
    await openRow(rejecter, '/packages/approve', 'Delivery', name);
    await expect(rejecter).toHaveURL(/\/packages\/approve\/view$/);
    await rejecter.getByRole('button', { name: MSG.continue }).click();
    // the header view is there before its Reject is pressed (the details page has a Reject too)
    await rejecter.getByRole('table', { name: 'Package header' }).waitFor();
    await rejecter.getByRole('button', { name: 'Reject' }).click();
    await expect(rejecter.getByRole('dialog', { name: 'Confirm Package Rejection' })).toBeVisible();
    await rejecter
      .getByLabel('Reason for the rejection')
      .fill('Serial range does not match the rollout list');
    await expect(rejecter.getByRole('dialog')).toContainText(SIGNATURE_MEANINGS.rejectDelivery);
    await rejecter
      .getByRole('dialog')
      .getByLabel(/^Your password/)
      .fill(SEED_PASSWORD);
    await rejecter.getByRole('button', { name: 'Reject' }).last().click();
    await expect(rejecter.getByText(MSG.rejectionConfirmed)).toBeVisible();
    await rejecter.context().close();

    // the initiator sees 'Package rejected'; the release engineer re-delivers
    await page.goto('/packages');
    await page.getByRole('tab', { name: 'Delivery' }).click();
    await expect(page.getByRole('row', { name: new RegExp(name) }).first()).toContainText('Package rejected');
    await openRow(signer, '/packages', 'Delivery', name);
    await expect(signer).toHaveURL(/\/packages\/rejected\/view$/);
    await expect(signer.getByText('Serial range does not match the rollout list').first()).toBeVisible();
    await signer.getByRole('button', { name: 'Re-deliver' }).click();
    await signer.getByRole('button', { name: MSG.continue }).click();
    for (const { label } of DELIVERY)
      await signer.getByLabel(label, { exact: true }).selectOption({ index: 1 });
    await signer.getByRole('button', { name: 'Notify' }).click();
    await signInDialog(signer, 'Re-deliver', SIGNATURE_MEANINGS.redeliver);
    await expect(signer.getByText(MSG.notified)).toBeVisible();
    await closePopup(signer);

    // all delivery approvers approve: delivered
    for (const [i, { email }] of DELIVERY.entries()) {
      const p = await as(browser, email);
      await approveFromList(p, 'Delivery', name);
      if (i < DELIVERY.length - 1) {
        await expect(p.getByText(MSG.approvedWaiting)).toBeVisible();
      } else {
        await expect(p).toHaveURL(/\/packages\/download$/);
        await expect(p.getByRole('heading', { name: 'RELEASE PACKAGE DELIVERY' })).toBeVisible();
      }
      await p.context().close();
    }
    const token = await loginToken('technical-leader@example.com');
    const delivery = (await (
      await fetch(apiUrl('/delivery/packages'), { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { packages: string };
    const stored = (JSON.parse(delivery.packages) as { name: string; status: string }[]).find(
      (p) => p.name === name,
    );
    expect(stored?.status).toBe('DELIVERED');
  });

  test('an unsigned development package approved by every approver goes straight to its download page', async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const name = await unsignedDevPackageSentForApproval(page, 'ecg-fw', 'Nightly bench build');
    // the initiator's package list waits on another tab; a mark on the window tells a reload apart
    await page.goto('/packages');
    await page.getByRole('tab', { name: 'Release' }).click();
    await page.evaluate(() => {
      (globalThis as { sameDocument?: boolean }).sameDocument = true;
    });
    const listRow = page.getByRole('row', { name: new RegExp(name) }).first();
    const APPROVERS = approvers('DEV_UNSIGNED');
    for (const [i, email] of APPROVERS.entries()) {
      const p = await as(browser, email);
      await approveFromList(p, 'Development', name);
      if (i < APPROVERS.length - 1) await expect(p.getByText(MSG.approvedWaiting)).toBeVisible();
      else {
        // generated off the request path (decision 160): progress first, then the download page by itself;
        // meanwhile the initiator opens the Development list and sees the row Generating… (decision 178)
        await Promise.all([
          (async () => {
            await expect(p).toHaveURL(/\/packages\/download$/);
            await expect(p.getByRole('heading', { name: 'GENERATED NEW DEVELOPMENT PACKAGE' })).toBeVisible();
            await expect(
              p.getByRole('region', { name: 'Generation' }).getByText('Generating…'),
            ).toBeVisible();
            await expect(p.getByRole('progressbar', { name: 'Generating' })).toBeVisible();
            await expect(p.getByTestId('generation-bytes')).toHaveText(/^\d+\.\d MiB of \d+\.\d MiB$/);
          })(),
          (async () => {
            await page.getByRole('tab', { name: 'Development' }).click();
            await expect(listRow.getByTestId('generating-label')).toHaveText(
              /^Generating… \d+\.\d MiB of \d+\.\d MiB$/,
            );
          })(),
        ]);
        // the list moves on by itself (no reload, no click): the row now says Approved
        await expect(listRow).toContainText('Approved', { timeout: 30_000 });
        await expect(listRow.getByTestId('generating-label')).toHaveCount(0);
        expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
        await expect(p.getByText('Success!')).toBeVisible({ timeout: 30_000 });
        await expect(p.getByText('Generating…')).toHaveCount(0);
        await expect(p.getByRole('button', { name: 'Download' })).toBeVisible();
      }
      await p.context().close();
    }
  });

  test('an approver rejects a package and the initiator sees it on the rejected page with the note', async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const name = await unsignedDevPackageSentForApproval(page, 'vent-fw', 'Ventilator pressure fix');

    const lead = await as(browser, 'technical-leader@example.com');
    await openRow(lead, '/packages/approve', 'Development', name);
    await lead.getByRole('button', { name: 'Reject' }).click();
    const dialog = lead.getByRole('dialog', { name: 'Confirm Package Rejection' });
    await expect(dialog.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await lead.getByLabel('Reason for the rejection').fill('Pressure ramp exceeds the clinical limit');
    await expect(dialog.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await expect(dialog).toContainText(signatureMeaning('reject', 'DEV_UNSIGNED'));
    await dialog.getByLabel(/^Your password/).fill(SEED_PASSWORD);
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(lead.getByText(MSG.rejectionConfirmed)).toBeVisible();
    await closePopup(lead);
    await expect(lead).toHaveURL(/\/home$/);

    // the initiator's mail, and the rejection with its note on the package's page
    await expect
      .poll(
        async () =>
          (await mailsTo('design-engineer-dev@example.com')).some(
            (m) => m.subject === `Approval rejected: ${name}`,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    await openRow(page, '/packages', 'Development', name);
    // a rejection in approval opens the rejected page (spec §4.4 'REJECTED'), not 'PACKAGE GENERATED'
    await expect(page).toHaveURL(/\/packages\/rejected\/view$/);
    await expect(page.getByRole('heading', { level: 1, name: 'REJECTED' })).toBeVisible();
    await expect(page.getByText('Pressure ramp exceeds the clinical limit').first()).toBeVisible();
  });
});

async function loginToken(email: string): Promise<string> {
  const r = await fetch(apiUrl('/user/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: email, password: SEED_PASSWORD }),
  });
  return ((await r.json()) as { token: string }).token;
}

/** Creation of the signed release package with header edits in decimal and hex. */
async function createAndNotifyWithHeaderEdits(page: Page, patch: string): Promise<string> {
  const name = await createAndNotify(page, {
    stage: 'Release',
    signed: true,
    patch,
    note: 'Occlusion alarm latency fix',
  });
  await page.getByLabel('Package Id (decimal)').fill('258');
  await expect(page.getByLabel('Package Id (HEX)')).toHaveValue('0x00000102');
  await page.getByLabel('Device Model Id, Model Id (HEX)').fill('0x10');
  await expect(page.getByLabel('Device Model Id, Model Id (decimal)')).toHaveValue('16');
  await page.getByLabel('Device Model Id, Sub Model Id (decimal)').fill('70000');
  await expect(page.getByLabel('Device Model Id, Sub Model Id (decimal)')).not.toHaveValue('70000');
  await page.getByLabel('Update Operation Type').selectOption({ label: 'UPDATE' });
  await page.getByRole('button', { name: MSG.continue }).click();
  return name;
}
