import { departureText } from '../../shared/domain/departures';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { call, newcomer, post, tokenOf, unique } from './api-journeys';
import { openApproveDialog, shootAt } from './browser-steps';
import { policyApprovers } from './policy-approvers';
import { expect, signIn, signOut, test } from './support';

/**
 * Change of people (decision 351) in Chromium: a package waits on a Technical Leader whose role an admin
 * revokes on the users screen (signed, with a reason); the initiator reads it on the home page, reassigns
 * the place to the seeded Technical Leader with a signed reason, who approves; the record shows the
 * reassignment and the approval. A second package waiting on her is withdrawn to a draft (signed) and
 * opens editable. Screenshots at 1366×768 and 1920×1080 under test-results/.
 */
test.use({ viewport: { width: 1366, height: 900 } });

const SHOTS = 'test-results/e2e/change-of-people';
const INITIATOR = 'design-engineer-dev@example.com';
const SUCCESSOR = 'technical-leader@example.com';
const TYPE = 'DEV_UNSIGNED';

/** A development package of the seeded design engineer sent for approval, `leaderId` as its Technical Leader. */
async function waitingOn(leaderId: string, name: string, note: string) {
  const dev = await tokenOf(INITIATOR);
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(4096).fill(7)]), `${name}.bin`);
  const res = JSON.parse(
    (await call(`/resources/patch/dev?name=${name}`, dev, { method: 'POST', body: form })).resource!,
  ) as { id: string };
  const pkg = JSON.parse(
    (await post(`/resources/${res.id}/generate-package`, dev, { packageName: name, packageType: TYPE, note }))
      .package!,
  ) as { id: string; name: string };
  const dcc = (
    await post('/dcc', dev, {
      deviceId: unique('COP-DEV'),
      telemetryType: 'TelB',
      messageLimit: 64,
      deviceLimit: 4096,
    })
  ).dccUuid;
  await call(`/packages/${pkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const candidates = JSON.parse((await call(`/packages/${pkg.id}/approvers`, dev)).approvers!) as Record<
    string,
    { id: string; email: string }[]
  >;
  await post(`/packages/${pkg.id}/notify-approvers`, dev, {
    approvers: policyApprovers(TYPE).map((a) => ({
      role: a.role,
      id: a.role === 'TECHNICAL_LEADER' ? leaderId : candidates[a.role]!.find((c) => c.email === a.email)!.id,
    })),
  });
  return pkg;
}

test('a package waiting on a leader whose role was revoked is reassigned, approved; another is withdrawn', async ({
  page,
  a11y,
}) => {
  // about 1.6 minutes alone; the CI rehearsal on this 2-core machine stretches it past the default 2
  test.setTimeout(180_000);
  // a Technical Leader of her own: the seeded one stays for the other journeys
  const dana = await newcomer('Leaving-Lead-1', 'Dana Departed');
  const stamp = Date.now().toString(36);
  const first = await waitingOn(dana.id, `cop-reassign-${stamp}`, 'Occlusion alarm threshold fix');
  const second = await waitingOn(dana.id, `cop-withdraw-${stamp}`, 'Battery gauge calibration');

  // an admin revokes her role on the users screen: a signature with a reason
  await signIn(page, 'admin@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  await page.getByLabel('Search').fill(dana.email);
  await page.getByRole('checkbox', { name: `Select ${dana.name} (${dana.email})` }).check();
  await page.getByRole('button', { name: /^Refuse/ }).click();
  const revoke = page.getByRole('dialog', { name: 'Sign: Refuse or revoke roles' });
  await expect(revoke).toBeVisible();
  await revoke.getByLabel(/^Reason for refusing or revoking/).fill('Dana moved to the hardware team');
  await revoke.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await revoke.getByRole('button', { name: 'Sign and refuse' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await signOut(page);

  // the initiator's home: both packages wait on someone who left, with the sentence
  const sentence = departureText({
    seat: 'approver',
    userId: dana.id,
    name: dana.name,
    role: 'TECHNICAL_LEADER',
    why: 'notGranted',
  });
  await signIn(page, INITIATOR);
  await expect(page).toHaveURL(/\/home$/);
  const stalled = page.getByRole('region', { name: /^Waiting on someone who left/ });
  const row = stalled.getByRole('link', { name: `Reassign or withdraw: ${first.name}` });
  await expect(row).toContainText(sentence);
  await expect(stalled.getByRole('link', { name: `Reassign or withdraw: ${second.name}` })).toBeVisible();
  await a11y(page, 'home with packages waiting on someone who left');
  await stalled.scrollIntoViewIfNeeded();
  await shootAt(page, `${SHOTS}/home-stalled`);

  // the package page names her and offers the seeded leader in her place
  await row.click();
  const panel = page.getByRole('alert').filter({ hasText: 'Waiting on someone who left their role' });
  await expect(panel).toContainText(`This package ${sentence}.`);
  const select = panel.getByLabel('New approver (Technical Leader)');
  await expect(select.locator('option', { hasText: SUCCESSOR })).toHaveCount(1);
  await select.selectOption({ label: `Terry Lead (${SUCCESSOR})` });
  await a11y(page, 'package page with a departure');
  await shootAt(page, `${SHOTS}/package-departure`);
  await panel.getByRole('button', { name: 'Reassign…' }).click();
  const reassign = page.getByRole('dialog', { name: 'Sign: Reassign' });
  await expect(reassign).toContainText(`to Terry Lead`);
  await reassign.getByLabel(/^Why the place is reassigned/).fill('Dana left the Technical Leader role');
  await reassign.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await a11y(page, 'the reassign signature dialog');
  await shootAt(page, `${SHOTS}/reassign-dialog`);
  await reassign.getByRole('button', { name: 'Sign and reassign' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button').last().click();
  await signOut(page);

  // the others approve in the policy's order; the new leader approves in Chromium in their turn
  await signIn(page, SUCCESSOR);
  await expect(page).toHaveURL(/\/home$/);
  for (const a of policyApprovers(TYPE)) {
    if (a.role !== 'TECHNICAL_LEADER') {
      await post(`/packages/${first.id}/approve`, await tokenOf(a.email), { password: SEED_PASSWORD });
      continue;
    }
    const dialog = await openApproveDialog(page, first.name);
    await dialog.getByLabel(/^Your password/).fill(SEED_PASSWORD);
    await dialog.getByRole('button', { name: MSG.approve, exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.locator('.frp-dialog button').last().click();
  }
  await signOut(page);

  // the record of the package: the reassignment by the initiator, and the new leader's approval
  await signIn(page, INITIATOR);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`/packages/open/${first.id}`);
  const recordPart = page.getByRole('region', { name: 'Approval record (newest first)' });
  const record = recordPart.getByRole('table', { name: /Approval record/ });
  await expect(record.getByRole('row').filter({ hasText: 'Terry Lead' })).toContainText('Approved');
  // the record is paged: its search finds the reassignment among the earlier events
  await recordPart.getByLabel('Search').fill('Reassigned');
  const reassigned = record.getByRole('row').filter({ hasText: 'Reassigned' });
  await expect(reassigned.getByRole('cell').nth(1)).toHaveText('Dana Dev');
  await expect(reassigned).toContainText('reassigns the approver of the package');
  // whose place went to whom, and why
  await expect(reassigned).toContainText(
    /Dana Departed → Terry Lead\. Reason: Dana left the Technical Leader role/,
  );

  // the second package is withdrawn to a draft, signed, and opens editable
  await page.goto(`/packages/open/${second.id}`);
  await page.getByRole('button', { name: 'Withdraw to draft…' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Sign: Withdraw to draft' });
  await withdraw.getByLabel(/^Why the package is withdrawn/).fill('Approvers to be chosen again');
  await withdraw.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await withdraw.getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button').last().click();
  await page.goto(`/packages/open/${second.id}`);
  await expect(page.getByRole('button', { name: 'Continue editing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Withdraw to draft…' })).toHaveCount(0);
  await expect(page.getByText('Waiting on someone who left their role')).toHaveCount(0);
  await a11y(page, 'the withdrawn draft');
  await shootAt(page, `${SHOTS}/withdrawn-draft`);
  await page.getByRole('button', { name: 'Continue editing' }).click();
  await expect(page.getByRole('button', { name: MSG.continue })).toBeVisible();
});
