import { resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { defaultPackageName } from '../../shared/domain/package-names';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { apiAt, jsonText } from '../support/api';
import { expect, test } from './support';

/**
 * "never lose, never re-type", in Chromium at 1366×768: a reload and the Back button in the
 * middle of creation lose nothing, and a package after a rejection starts from the rejected one, changing
 * one field. Each journey looks at its screens (docs/screenshots/25-*.png) and runs axe on them.
 */

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const DEV = 'design-engineer-dev@example.com';
const VIEWPORT = { width: 1366, height: 768 };
const shots = resolve('docs/screenshots');

const call = <T = Record<string, unknown>>(path: string, opts: Parameters<typeof apiAt>[2] = {}) =>
  apiAt<T>(process.env.E2E_BASE_URL!, path, opts);

async function tokenOf(email: string) {
  const r = await call<{ token: string }>('/user/login', {
    method: 'POST',
    body: { login: email, password: SEED_PASSWORD },
  });
  expect(r.status).toBe(200);
  return r.body.token;
}

async function uploadDevPatch(token: string, name: string): Promise<Resource> {
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(20_000).fill(7)]), `${name}.bin`);
  const r = await call<{ resource: string }>(`/resources/patch/dev?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    token,
    body: form,
  });
  expect(r.status).toBe(201);
  return jsonText<Resource>(r.body.resource);
}

async function signedInAs(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
  await page.getByRole('button', { name: MSG.submit }).click();
  await expect(page).toHaveURL(/\/home$/);
  return page;
}

/** From the patch list to step 1 of a new package of `patch`. */
async function startCreation(page: Page, patch: string) {
  await page.goto('/patches');
  await page.getByRole('tab', { name: 'Dev' }).click();
  await page.getByRole('row', { name: new RegExp(patch) }).click();
  await page.getByRole('button', { name: MSG.createPackage }).click();
  await expect(page).toHaveURL(/\/packages\/create$/);
}

const decimal = (page: Page, field: string) => page.getByLabel(`${field} (decimal)`);
const saveStatus = (page: Page) => page.locator('[data-save-state]');
const savedNow = (page: Page) => expect(saveStatus(page)).toHaveText(/^Saved \d\d:\d\d$/);

test.describe('never lose, never re-type', () => {
  test('a reload and the Back button in the middle of creation lose nothing', async ({ browser, a11y }) => {
    const token = await tokenOf(DEV);
    const patch = unique('nl-reload');
    await uploadDevPatch(token, patch);
    const page = await signedInAs(browser, DEV);

    await startCreation(page, patch);
    await page.getByLabel('Note').fill('Bench build of the new dosing limits');
    const name = await page.getByLabel('Package name').inputValue();
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/header$/);
    await page.getByRole('table', { name: 'Package header' }).waitFor();

    // typed values are saved to the draft as they are typed, without Continue
    await decimal(page, 'Package Id').fill('4711');
    await page
      .getByRole('button', { name: /add (an )?entry/i })
      .first()
      .click();
    await savedNow(page);
    await saveStatus(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: resolve(shots, '25-header-saved-as-typed.png') });
    await a11y(page, 'the header editor with its save state');

    // a reload keeps them
    await page.reload();
    await page.getByRole('table', { name: 'Package header' }).waitFor();
    await expect(decimal(page, 'Package Id')).toHaveValue('4711');

    // Continue to the DCC step, then Back, Back: step 1 is the same draft
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/dcc$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/packages\/header$/);
    await expect(decimal(page, 'Package Id')).toHaveValue('4711');
    await page.goBack();
    await expect(page).toHaveURL(/\/packages\/create$/);
    await expect(page.getByText('Your draft', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Package name')).toHaveValue(name);
    await expect(page.getByLabel('Note')).toHaveValue('Bench build of the new dosing limits');
    await page.screenshot({ path: resolve(shots, '25-back-to-step-1-shows-the-draft.png') });
    await a11y(page, 'step 1 of a draft');

    // Continue updates the draft: no "already exists" about the user's own package
    await page.getByLabel('Note').fill('Bench build of the new dosing limits, second round');
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/header$/);
    await expect(page.getByText(MSG.packageNameConflict)).toHaveCount(0);
    await expect(decimal(page, 'Package Id')).toHaveValue('4711');

    // one package, with the new note, on the user's home page and in the list
    const list = await call<{ packages: string }>('/dev/packages?drafts=mine', { token });
    const mine = jsonText<Package[]>(list.body.packages).filter((p) => p.resourceName === patch);
    expect(mine.map((p) => [p.name, p.note])).toEqual([
      [name, 'Bench build of the new dosing limits, second round'],
    ]);
  });

  test('a package after a rejection starts from the rejected one, changing one field', async ({
    browser,
    a11y,
  }) => {
    const token = await tokenOf(DEV);
    const patch = unique('nl-reject');
    const resource = await uploadDevPatch(token, patch);
    // the rejected package: its default name, a header typed by hand, a DCC, rejected by the leader
    const base = defaultPackageName(resource);
    const created = await call<{ package: string }>(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token,
      body: { packageName: base, packageType: 'DEV_UNSIGNED', note: 'First attempt' },
    });
    expect(created.status).toBe(201);
    const first = jsonText<Package>(created.body.package);
    const header = jsonText<{ fields: { name: string; value: unknown }[] }>(
      (await call<{ header: string }>(`/packages/${first.id}/header`, { token })).body.header,
    );
    const set = (name: string, value: unknown) => {
      const f = header.fields.find((x) => x.name === name);
      if (f) f.value = value;
    };
    set('Package Id', 31337);
    set('Installer Destination', 4096);
    expect(
      (
        await call(`/packages/${first.id}/header`, {
          method: 'PATCH',
          token,
          body: { header: JSON.stringify(header) },
        })
      ).status,
    ).toBe(200);
    const deviceId = unique('IP-4000');
    const dcc = await call<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token,
      body: { deviceId, telemetryType: 'TelA', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(
      (await call(`/packages/${first.id}/dcc/${dcc.body.dccUuid}`, { method: 'POST', token })).status,
    ).toBe(200);
    const candidates = jsonText<Record<string, { id: string; email?: string }[]>>(
      (await call<{ approvers: string }>(`/packages/${first.id}/approvers`, { token })).body.approvers,
    );
    const notified = await call(`/packages/${first.id}/notify-approvers`, {
      method: 'POST',
      token,
      body: {
        approvers: Object.entries(candidates).map(([role, users]) => ({
          role,
          id: (users.find((c) => c.email === 'technical-leader@example.com') ?? users[0])?.id,
        })),
      },
    });
    expect(notified.status).toBe(200);
    // the seeded technical leader is the only candidate of that role
    const rejected = await call(`/packages/${first.id}/reject`, {
      method: 'POST',
      token: await tokenOf('technical-leader@example.com'),
      body: { 'rejection-reason': 'Package Id must be 31338' },
    });
    expect(rejected.status).toBe(200);

    // the engineer starts again: step 1 proposes the rejected package, with a free name
    const page = await signedInAs(browser, DEV);
    await startCreation(page, patch);
    const startFrom = page.getByRole('group', { name: 'Start from an earlier package' });
    await expect(startFrom).toContainText(`The latest package of this resource, ${base}, was rejected`);
    await expect(page.getByLabel('Copy the header and DCC from an earlier package')).toBeChecked();
    await expect(page.getByLabel('Earlier package', { exact: true })).toHaveValue(first.id);
    await expect(page.getByLabel('Package name')).toHaveValue(`${base}_2`);
    await page.getByLabel('Note').fill('Second attempt: Package Id as the rejection asks');
    await startFrom.scrollIntoViewIfNeeded();
    await page.screenshot({ path: resolve(shots, '25-start-from-the-rejected-package.png') });
    await a11y(page, 'step 1 proposing the rejected package');
    await page.getByRole('button', { name: MSG.continue }).click();

    // the header step shows what was copied; one field changes
    await expect(page).toHaveURL(/\/packages\/header$/);
    await expect(page.getByText('Started from an earlier package')).toBeVisible();
    await expect(page.getByText(/Copied from/)).toContainText(`${base} (Rejected)`);
    await expect(page.getByText(/Copied from/)).toContainText(`DCC ${deviceId}`);
    await expect(decimal(page, 'Package Id')).toHaveValue('31337');
    await expect(decimal(page, 'Installer Destination')).toHaveValue('4096');
    await decimal(page, 'Package Id').fill('31338');
    await savedNow(page);
    await page.screenshot({ path: resolve(shots, '25-started-from-a-rejected-package.png') });
    await saveStatus(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: resolve(shots, '25-changed-one-field-saved.png') });
    await a11y(page, 'the header editor of a package started from another');
    await page.getByRole('button', { name: MSG.continue }).click();
    await expect(page).toHaveURL(/\/packages\/dcc$/);
    await expect(page.getByRole('row', { name: new RegExp(deviceId) })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    // on the server: the new package differs from the rejected one in that one field only
    const mine = jsonText<Package[]>(
      (await call<{ packages: string }>('/dev/packages?drafts=mine', { token })).body.packages,
    ).find((p) => p.name === `${base}_2`);
    expect(mine?.dccId).toBe(dcc.body.dccUuid);
    const copied = jsonText<{ fields: { name: string; type: string; value: unknown }[] }>(
      (await call<{ header: string }>(`/packages/${mine?.id}/header`, { token })).body.header,
    );
    const differing = copied.fields
      .filter((f) => f.type !== 'fixed')
      .filter(
        (f) =>
          JSON.stringify(f.value) !== JSON.stringify(header.fields.find((o) => o.name === f.name)?.value),
      )
      .map((f) => f.name);
    expect(differing).toEqual(['Package Id']);
  });
});
