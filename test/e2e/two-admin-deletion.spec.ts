import { DELETION_MEANINGS } from '../../shared/domain/deletion-proposals';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { directUsersAt } from '../support/direct-user-records';
import { expect, signIn, signOut, test } from './support';

/**
 * One admin cannot delete another (decision 336): on the users screen the first admin's signed deletion
 * of an administrator is a proposal, shown pending with who, when and why; a second admin confirms it in
 * the same signature dialog and the account is gone. Screenshots at 1366×768 and 1920×1080.
 */
const SHOTS = process.env.H36D_SHOTS ?? 'test-results/e2e/two-admin-deletion';

test('two admins delete an administrator: one proposes on the users screen, a second confirms', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const [target] = await directUsersAt(
    { dynamoEndpoint: process.env.E2E_DYNAMO_ENDPOINT!, dataDir: process.env.E2E_DATA_DIR! },
    1,
    'ADMIN',
    'Leaving Admin',
  );
  const row = `Leaving Admin (${target!.email})`;
  const openDialog = async () => {
    await page.getByLabel('Search').fill(target!.email);
    await page.getByRole('checkbox', { name: `Select ${row}` }).check();
    await page.getByRole('button', { name: /^Delete selected/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 1 selected user?' });
    await expect(dialog).toBeVisible();
    return dialog;
  };

  await signIn(page, 'admin@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  const proposing = await openDialog();
  await expect(proposing).toContainText('takes two admins: your signature proposes it');
  await expect(proposing).toContainText(DELETION_MEANINGS.proposeDeletion);
  await proposing.getByLabel(/^Reason for the deletion/).fill('Left the company on 27 November');
  await proposing.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await page.screenshot({ path: `${SHOTS}/propose-dialog-1366.png` });
  await proposing.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(
    'Waiting for a second admin to confirm the deletion of',
  );
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Search').fill(target!.email);
  await expect(page.getByText(/^Deletion proposed by you on .*: waiting for a second admin/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/pending-proposer-1366.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/pending-proposer-1920.png` });
  await signOut(page);

  // the second admin sees who proposed it and why, and confirms in the same signature dialog
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, 'admin-2@example.com');
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  await page.getByLabel('Search').fill(target!.email);
  await expect(
    page.getByText(/^Deletion proposed by .*\(admin@example\.com\) on .*: waits for your confirmation$/),
  ).toBeVisible();
  await expect(page.getByText('Reason: “Left the company on 27 November”')).toBeVisible();
  const confirming = await openDialog();
  await expect(confirming).toContainText(DELETION_MEANINGS.confirmDeletion);
  await confirming.getByLabel(/^Reason for the deletion/).fill('Confirmed with HR');
  await confirming.getByLabel(/^Your password/).fill(SEED_PASSWORD);
  await page.screenshot({ path: `${SHOTS}/confirm-dialog-1366.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/confirm-dialog-1920.png` });
  await confirming.getByRole('button', { name: 'Sign and delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Deleted successfully.');
  await page.getByRole('button', { name: 'Close' }).click();
  await page.goto('/admin/users');
  await page.getByLabel('Search').fill(target!.email);
  await expect(page.getByRole('checkbox', { name: `Select ${row}` })).toHaveCount(0);
});
