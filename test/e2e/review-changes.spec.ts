import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { approvalOrder } from '../../shared/domain/approval-policy';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { apiCall, apiTokenOf, expect, signIn, test } from './support';

/**
 * a reviewer sees "Changes since the last approved package" for the same device above the
 * decision — header fields old → new in decimal and hex, a criteria entry added, the payload digests,
 * the DCC, the previous package's name and state with a link — and the signature dialog states it was seen.
 */

const SHOTS = resolve('docs/screenshots');
const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const call = apiCall;
const tokenOf = apiTokenOf;

type HeaderDoc = { fields: { name: string; value: unknown }[] };

/** A development package of a new patch, its header edited, the DCC attached and sent to the four approvers. */
async function sentForApproval(dev: string, dccId: string, packageId: number, criteria: number) {
  const patch = unique('changes-patch');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(4096).fill(packageId)]), `${patch}.bin`);
  const res = JSON.parse(
    (await call(`/resources/patch/dev?name=${patch}`, dev, { method: 'POST', body: form })).resource!,
  ) as { id: string };
  const pkg = JSON.parse(
    (
      await call(`/resources/${res.id}/generate-package`, dev, {
        method: 'POST',
        body: JSON.stringify({
          packageName: unique(`Pump ${packageId}`),
          packageType: 'DEV_UNSIGNED',
          note: 'Raises the occlusion threshold',
        }),
      })
    ).package!,
  ) as { id: string; name: string };
  const header = JSON.parse((await call(`/packages/${pkg.id}/header`, dev)).header!) as HeaderDoc;
  header.fields.find((f) => f.name === 'Package Id')!.value = packageId;
  header.fields.find((f) => f.name === 'Patch Criteria Items')!.value = Array.from(
    { length: criteria },
    (_, i) => ({ Address: 0x2000 + i * 4, Mask: 0xffffffff, Value: 7 + i, Operator: i % 2 }),
  );
  await call(`/packages/${pkg.id}/header`, dev, {
    method: 'PATCH',
    body: JSON.stringify({ header: JSON.stringify(header) }),
  });
  await call(`/packages/${pkg.id}/dcc/${dccId}`, dev, { method: 'POST' });
  const candidates = JSON.parse(
    (await call<{ approvers: string }>(`/packages/${pkg.id}/approvers`, dev)).approvers,
  ) as Record<string, { id: string; email: string }[]>;
  // one per role the server offers, in the order the policy lets them approve (decision 272)
  const chosen = approvalOrder(
    Object.entries(candidates).map(([role, users]) => ({ role, user: users[0]! })),
    (c) => c.role,
  );
  await call(`/packages/${pkg.id}/notify-approvers`, dev, {
    method: 'POST',
    body: JSON.stringify({ approvers: chosen.map((c) => ({ role: c.role, id: c.user.id })) }),
  });
  return { ...pkg, approvers: chosen.map((c) => c.user.email) };
}

/** Every approver approves over the API; waits until the package file is generated (APPROVED). */
async function approvedByAll(pkg: { id: string; approvers: string[] }) {
  for (const email of pkg.approvers)
    await call(`/packages/${pkg.id}/approve`, await tokenOf(email), {
      method: 'POST',
      body: JSON.stringify({ password: SEED_PASSWORD }),
    });
  const lead = await tokenOf('technical-leader@example.com');
  await expect
    .poll(
      async () =>
        (JSON.parse((await call(`/packages/${pkg.id}/details`, lead)).package!) as { status: string }).status,
      { timeout: 60_000 },
    )
    .toBe('APPROVED');
}

test.use({ viewport: { width: 1366, height: 768 } });

test('a reviewer sees the changes since the last approved package for the same device', async ({ page }) => {
  const dev = await tokenOf('design-engineer-dev@example.com');
  const deviceId = unique('PUMP');
  const dccId = (
    await call('/dcc', dev, {
      method: 'POST',
      body: JSON.stringify({ deviceId, telemetryType: 'TelA', messageLimit: 64, deviceLimit: 4096 }),
    })
  ).dccUuid!;
  const previous = await sentForApproval(dev, dccId, 1, 1);
  await approvedByAll(previous);
  const current = await sentForApproval(dev, dccId, 2, 2);

  await signIn(page, 'technical-leader@example.com');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/packages/approve');
  await page.getByRole('tab', { name: 'Development' }).click();
  await page.getByRole('row', { name: new RegExp(current.name) }).click();
  await expect(page).toHaveURL(/\/packages\/approve\/view$/);
  // the details page of the decision shows it too
  await expect(page.getByRole('region', { name: MSG.changesTitle })).toContainText(previous.name);

  await page.getByRole('button', { name: MSG.continue }).click();
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  const panel = page.getByRole('region', { name: MSG.changesTitle });
  await expect(panel.getByRole('link', { name: previous.name })).toHaveAttribute(
    'href',
    new RegExp(`/packages/open/${previous.id}$`),
  );
  await expect(panel).toContainText(`(Approved; approved `);
  await expect(panel).toContainText(deviceId);
  const fields = panel.getByRole('table', { name: 'Header fields that differ' });
  await expect(fields.getByRole('row', { name: /Package Id/ })).toContainText('1 (0x00000001)');
  await expect(fields.getByRole('row', { name: /Package Id/ })).toContainText('2 (0x00000002)');
  const criteria = panel.getByRole('list', { name: 'Patch Criteria Items changes' });
  await expect(criteria).toContainText('Added Entry 2: Address 8196 (0x00002004)');
  await expect(criteria).toContainText('Operator NOT_EQUAL (1, 0x01)');
  await expect(panel.getByRole('list', { name: 'Payload and metadata' })).toContainText('Payload — changed');
  await expect(panel).toContainText('The DCC values are the same.');

  // the panel reads well at 1366×768: in view once scrolled to, no horizontal overflow
  await panel.scrollIntoViewIfNeeded();
  const widths = await page.evaluate<{ scroll: number; client: number }>(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  );
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  const axe = await new AxeBuilder({ page })
    .include('.frp-changes')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/review-changes-1366x768.png` });
  // the whole panel in one picture: a taller window, so the sticky decision bar does not cover it
  await page.setViewportSize({ width: 1366, height: 1400 });
  await panel.screenshot({ path: `${SHOTS}/review-changes-panel.png` });
  await page.setViewportSize({ width: 1366, height: 768 });

  // the signature dialog states that the reviewer saw this comparison
  await page.getByRole('button', { name: MSG.approve }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(MSG.changesSeen);
  await expect(dialog).toContainText(`Compared with ${previous.name} (Approved).`);
  await expect(dialog).toContainText('The audit trail also keeps which comparison you saw.');
  await expect(dialog).toContainText('Development package, unsigned (DEV_UNSIGNED)');
  const dialogAxe = await new AxeBuilder({ page })
    .include('dialog')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(dialogAxe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/review-changes-dialog-1366x768.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/review-changes-dialog-1920x1080.png` });
  await page.setViewportSize({ width: 1366, height: 768 });
  // signed: the approval record keeps which comparison was seen (decision 266)
  await dialog.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await dialog.getByRole('button', { name: MSG.approve, exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(MSG.approvedWaiting);
  await page.getByRole('button', { name: 'Close' }).click();
  await page.goto(`/packages/open/${current.id}`);
  await expect(page.getByText(`Changes seen: compared with ${previous.name}`)).toBeVisible();
});
