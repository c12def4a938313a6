import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { COMPANY_NAME, COMPANY_PASSWORD } from '../../infra/local/company-idp';
import { MSG } from '../../shared/messages';
import { CompanyBrowser, putCompanyAccounts } from '../support/company-idp';
import { grantByTwoAdmins, packageFor, post, unique } from './api-journeys';
import { openApproveDialog, shootAt, virtualAuthenticator } from './browser-steps';
import { expect, test } from './support';

/**
 * A person a company identity signs in as, without a portal password (decision 368), confirms with a fresh
 * sign-in at the company's provider, in its real pages in a popup: an approval (the electronic signature)
 * and the addition of a passkey in Settings. The person's account, role and the package waiting for them
 * are set up over the API; the story is clicked in Chromium.
 */

const LOCAL = process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
test.use({ baseURL: LOCAL });
const SHOTS = process.env.H34R_SHOTS ?? 'test-results/e2e/company-reauth';

/** A company sign-in over HTTP, through the provider's pages: the portal's session token and user. */
async function companySession(email: string) {
  const started = await post('/company-sign-on/start', null, {});
  const at = await new CompanyBrowser().signIn(
    started.authorizationUrl!,
    `${LOCAL}/login/company`,
    email,
    COMPANY_PASSWORD,
  );
  if (!('search' in at))
    throw new Error(`the provider did not send the browser back: ${at.page.slice(0, 300)}`);
  const r = await post('/company-sign-on/callback', null, { search: at.search, binding: started.binding });
  if (r.outcome !== 'SIGNED_IN') throw new Error(`company sign-in: ${JSON.stringify(r)}`);
  return { token: r.token!, user: JSON.parse(r.user!) as { id: string; name: string; email: string } };
}

/** The provider's own login page in the popup the portal opened: the person signs in there again. */
async function signInAgainAtCompany(page: Page, open: () => Promise<void>, email: string) {
  const popupOpened = page.waitForEvent('popup');
  await open();
  const popup = await popupOpened;
  await expect(popup.getByText(`with your ${COMPANY_NAME} account`)).toBeVisible();
  await popup.getByLabel('Work email').fill(email);
  await popup.getByLabel('Password').fill(COMPANY_PASSWORD);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  // the portal's callback page hands the ticket to the opener and closes itself
  await popup.waitForEvent('close');
}

test('a company-only approver approves with a fresh company sign-in, then adds a passkey with one', async ({
  browser,
  a11y,
}) => {
  // an account, two admins' grants and a package through the API on a machine shared by several runs
  test.setTimeout(600_000);
  mkdirSync(SHOTS, { recursive: true });
  const sub = unique('cora');
  const email = `${sub}@example.com`;
  putCompanyAccounts(process.env.E2E_DATA_DIR!, [
    { sub, email, email_verified: true, name: 'Cora Company', password: COMPANY_PASSWORD },
  ]);
  const first = await companySession(email);
  await post('/user/account', first.token, { name: 'Cora Company', email, userRole: 'TECHNICAL_LEADER' });
  await grantByTwoAdmins(first.user.id);
  const pkg = await packageFor(first.user.id, 'Approved with a fresh company sign-in');
  const { token } = await companySession(email);

  const context = await browser.newContext({ baseURL: LOCAL, viewport: { width: 1366, height: 900 } });
  await context.addCookies([{ name: 'token', value: encodeURIComponent(token), url: LOCAL }]);
  const page = await context.newPage();
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

  // the package waits for Cora's approval; no portal password: the company confirms the signature
  const dialog = await openApproveDialog(page, pkg.name);
  const again = dialog.getByRole('button', { name: `Approve: sign in again at ${COMPANY_NAME}` });
  await expect(again).toBeVisible();
  await expect(dialog.getByLabel(/^Your password/)).toHaveCount(0);
  await a11y(page, 'signature dialog with a company sign-in');
  await shootAt(page, `${SHOTS}/signature-dialog-company`);
  await signInAgainAtCompany(page, () => again.click(), email);
  await expect(dialog).toBeHidden();
  await expect(page.locator('.frp-dialog')).toContainText(MSG.approvedWaiting);
  await page.locator('.frp-dialog button').last().click();

  // the approval record names how the approval was signed
  await page.goto(`/packages/open/${pkg.id}`);
  const record = page.getByRole('table', { name: 'Approval record, newest first' });
  await expect(record).toContainText('Signed with: fresh company sign-in');

  // Settings → Passkeys: the first passkey, confirmed with a fresh company sign-in
  await page.goto('/user/settings?form=passkeys');
  const add = page.getByRole('form', { name: 'Add a passkey' });
  await expect(add.getByLabel(/^Your password/)).toHaveCount(0);
  await add.getByLabel('Name').fill('Work laptop');
  await shootAt(page, `${SHOTS}/settings-passkeys-company`);
  await signInAgainAtCompany(
    page,
    () => add.getByRole('button', { name: `Sign in again at ${COMPANY_NAME}` }).click(),
    email,
  );
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Work laptop" added' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your passkeys' })).toContainText('Work laptop');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await a11y(page, 'Settings → Passkeys of a company-only person');
  await context.close();
});
