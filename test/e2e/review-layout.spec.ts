import type { Page } from '@playwright/test';
import { MSG } from '../../shared/messages';
import { apiCall, apiTokenOf, expect, signIn, test } from './support';

/**
 * at 1366×768 an approver sees the file and DCC facts and reaches the decision buttons
 * without scrolling (before, they sat ~1,500 px down, below the approvers and the approval record).
 */

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const call = apiCall;
const tokenOf = apiTokenOf;

/** A signed release package waiting for every approver, set up over the API. */
async function releasePackageWaitingForApproval(deviceId: string) {
  const dev = await tokenOf('design-engineer-dev@example.com');
  const patch = unique('review-patch');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(96 * 1024).fill(7)]), `${patch}.bin`);
  const res = JSON.parse(
    (await call(`/resources/patch/release?name=${patch}`, dev, { method: 'POST', body: form })).resource!,
  ) as { id: string; sha256: string };
  const pkg = JSON.parse(
    (
      await call(`/resources/${res.id}/generate-package`, dev, {
        method: 'POST',
        body: JSON.stringify({
          packageName: unique('Review layout'),
          packageType: 'RELEASE_SIGNED',
          note: 'Checks the review page layout',
        }),
      })
    ).package!,
  ) as { id: string; name: string };
  const dcc = (
    await call('/dcc', dev, {
      method: 'POST',
      body: JSON.stringify({ deviceId, telemetryType: 'TelB', messageLimit: 128, deviceLimit: 8192 }),
    })
  ).dccUuid;
  await call(`/packages/${pkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const chosen = await call<{ approvers: string; signers: string }>(
    `/packages/${pkg.id}/approvers?signers=true`,
    dev,
  );
  const candidates = JSON.parse(chosen.approvers) as Record<string, { id: string; email: string }[]>;
  const signers = JSON.parse(chosen.signers) as { id: string }[];
  await call(`/packages/${pkg.id}/notify-approvers`, dev, {
    method: 'POST',
    body: JSON.stringify({
      approvers: Object.entries(candidates).map(([role, users]) => ({ role, id: users[0]!.id })),
      signer: signers[0]!.id,
    }),
  });
  return { name: pkg.name, sha256: res.sha256 };
}

/** The buttons are on screen, the page was not scrolled, and there is a page below to scroll to. */
async function inViewWithoutScrolling(page: Page, buttons: string[]) {
  const bar = page.getByRole('region', { name: 'Package actions' });
  for (const name of buttons) await expect(bar.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  // (a page script as text: the root tsconfig has no DOM types)
  const { scrollY, scrollHeight, innerHeight } = await page.evaluate<{
    scrollY: number;
    scrollHeight: number;
    innerHeight: number;
  }>(
    '({ scrollY: window.scrollY, scrollHeight: document.documentElement.scrollHeight, innerHeight: window.innerHeight })',
  );
  expect(scrollY).toBe(0);
  // the page is longer than the screen: without the sticky bar the buttons would be below the fold
  expect(scrollHeight).toBeGreaterThan(innerHeight + 200);
}

test.use({ viewport: { width: 1366, height: 768 } });

test('at 1366×768 the approver sees the file and DCC cards and the decision buttons without scrolling', async ({
  page,
}) => {
  const deviceId = unique('REVIEW-DEV');
  const pkg = await releasePackageWaitingForApproval(deviceId);
  await signIn(page, 'technical-leader@example.com');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/packages/approve');
  await page.getByRole('tab', { name: 'Release' }).click();
  await page.getByRole('row', { name: new RegExp(pkg.name) }).click();
  await expect(page).toHaveURL(/\/packages\/approve\/view$/);

  const dccValues = page.getByLabel('DCC values');
  await expect(dccValues).toContainText(deviceId);
  await expect(dccValues).toContainText('TelB');
  await expect(dccValues).toContainText('8,192 bytes');
  const file = page.getByLabel('Patch file details');
  await expect(file).toContainText(pkg.sha256);
  await expect(file).toContainText('98,304 bytes (96.0 KiB)');
  // the approval record has loaded: the page is at its full length
  await expect(page.getByRole('table', { name: 'Approval record, newest first' })).toContainText(
    'DCC attached',
  );
  await inViewWithoutScrolling(page, [MSG.cancel, MSG.reject, MSG.continue]);

  await page.getByRole('button', { name: MSG.continue }).click();
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  await expect(page.getByLabel('DCC values')).toContainText(deviceId);
  await inViewWithoutScrolling(page, [MSG.back, MSG.reject, MSG.approve]);

  // at the end of the page the bar is still there, in its place
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect(
    page.getByRole('region', { name: 'Package actions' }).getByRole('button', { name: MSG.approve }),
  ).toBeInViewport({ ratio: 1 });
});
