import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { MSG } from '../../shared/messages';
import { apiUrl, expect, signIn, test } from './support';

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A minimal TensorFlow Lite flatbuffer head: the 'TFL3' identifier at bytes 4..8. */
const tflite = () => Buffer.concat([Buffer.from([0x1c, 0, 0, 0]), Buffer.from('TFL3'), Buffer.alloc(64, 7)]);

async function apiCall(path: string, token: string, init: RequestInit = {}) {
  const res = await fetch(apiUrl(path), {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body && typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...init.headers,
    },
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, string> };
}

async function tokenOf(email: string, password = 'Local-Dev-1234') {
  const r = await fetch(apiUrl('/user/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: email, password }),
  });
  return ((await r.json()) as { token: string }).token;
}

test.describe('resources', () => {
  test('a design engineer uploads a patch and a model, sees them in PATCHES and MODELS, and gets the spec messages for bad files', async ({
    page,
    a11y,
  }) => {
    const patchName = unique('pump-patch');
    const modelName = unique('arrhythmia-model');
    await signIn(page, 'design-engineer-dev@example.com');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'UPLOAD' }).click();
    await expect(page).toHaveURL(/\/upload$/);
    await a11y(page, '/upload');

    // a wrong file type is refused by the picker
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText(MSG.fileTypeNotSupported)).toBeVisible();

    // a patch
    await page.getByLabel('Patch name').fill(patchName);
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'pump.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(4096, 1),
      });
    await expect(page.getByText('File name: pump.bin')).toBeVisible();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByText(MSG.uploaded)).toBeVisible();
    await page.getByRole('button', { name: MSG.close }).click();
    await expect(page).toHaveURL(/\/home$/);

    // the same name again: the spec's conflict message under the name field
    await page.goto('/upload');
    await page.getByLabel('Patch name').fill(patchName);
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'pump2.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(10, 2),
      });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByText(MSG.resourceNameConflict)).toBeVisible();

    // a model with its metadata
    await page.getByRole('tab', { name: MSG.tabModel }).click();
    await page.getByLabel('Model name').fill(modelName);
    const inputs = page.locator('input[type=file]');
    await inputs
      .nth(0)
      .setInputFiles({ name: 'model.tflite', mimeType: 'application/octet-stream', buffer: tflite() });
    await inputs.nth(1).setInputFiles({
      name: 'model.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ modelName: 'ArrhythmiaNet', version: '2.4.1' })),
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByText(MSG.uploaded)).toBeVisible();
    await page.getByRole('button', { name: MSG.close }).click();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PATCHES' }).click();
    await page.getByLabel('Search').fill(patchName);
    await expect(page.getByRole('cell', { name: patchName, exact: true })).toBeVisible();
    await a11y(page, '/patches');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MODELS' }).click();
    await page.getByLabel('Search').fill(modelName);
    await expect(page.getByRole('cell', { name: modelName, exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'ArrhythmiaNet' })).toBeVisible();
    await expect(page.getByRole('cell', { name: '2.4.1' })).toBeVisible();
  });
});

test('a file above the API request limit goes straight to storage with a progress bar, and is listed', async ({
  page,
}) => {
  const name = unique('big-patch');
  await signIn(page, 'design-engineer-test@example.com');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/upload');
  await page.getByLabel('Patch name').fill(name);
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(12 * 1024 * 1024, 3),
    });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(MSG.uploaded)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: MSG.close }).click();
  await page.goto('/patches');
  await page.getByLabel('Search').fill(name);
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
});

test.describe('administration', () => {
  test('an admin deletes a package, a DCC, a resource and a user; the deleted user can neither sign in nor register again', async ({
    page,
    a11y,
  }) => {
    // what the admin will delete, made through the API
    const dev = await tokenOf('design-engineer-dev@example.com');
    const form = new FormData();
    const resourceName = unique('old-patch');
    form.append('resourceFile', new Blob([new Uint8Array(128)]), 'old.bin');
    const up = await apiCall(`/resources/patch/dev?name=${resourceName}`, dev, {
      method: 'POST',
      body: form,
    });
    expect(up.status).toBe(201);
    const resource = JSON.parse(up.body.resource!) as { id: string };
    const packageName = unique('obsolete-package');
    const gen = await apiCall(`/resources/${resource.id}/generate-package`, dev, {
      method: 'POST',
      body: JSON.stringify({ packageName, packageType: 'DEV_UNSIGNED', note: 'to be removed' }),
    });
    expect(gen.status).toBe(201);
    const deviceId = unique('retired-device');
    expect(
      (
        await apiCall('/dcc', dev, {
          method: 'POST',
          body: JSON.stringify({ deviceId, telemetryType: 'BLE', messageLimit: 16, deviceLimit: 16 }),
        })
      ).status,
    ).toBe(201);
    const leaverEmail = `${unique('leaver')}@example.com`;
    const reg = await fetch(apiUrl('/user/register'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Lee Leaver',
        email: leaverEmail,
        password: 'Leaver-Pass-1',
        userRole: 'TECHNICAL_LEADER',
      }),
    });
    expect(reg.status).toBe(201);

    await signIn(page, 'admin@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    const admin = page.getByRole('navigation', { name: 'Administration' });

    const deleteRow = async (tab: string, search: string, rowLabel: string, url: RegExp, signed = false) => {
      await admin.getByRole('link', { name: tab }).click();
      await expect(page).toHaveURL(url);
      await page.getByLabel('Search').fill(search);
      await page.getByRole('checkbox', { name: `Select ${rowLabel}` }).check();
      await expect(page.getByRole('button', { name: MSG.deleteSelected })).toBeEnabled();
      await a11y(page, String(url));
      await page.getByRole('button', { name: MSG.deleteSelected }).click();
      // a confirm dialog lists what goes, with its state; only its Delete deletes
      const confirm = page.getByRole('dialog', { name: /^Delete 1 selected/ });
      await expect(confirm.getByRole('listitem')).toContainText(rowLabel);
      await expect(confirm.getByRole('button', { name: MSG.cancel })).toBeFocused();
      await a11y(page, `${String(url)} confirm`);
      if (signed) {
        // deleting an account is a signature with a reason (decision 357)
        await confirm.getByLabel(/^Reason for the deletion/).fill('Left the company');
        await confirm.getByLabel(/^Your password/).fill(SEED_PASSWORD);
        await confirm.getByRole('button', { name: 'Sign and delete' }).click();
      } else await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByText(MSG.deleted)).toBeVisible();
      await page.getByRole('button', { name: MSG.close }).click();
      await expect(page).toHaveURL(/\/admin$/);
    };
    await deleteRow('PACKAGES', packageName, packageName, /\/admin\/packages$/);
    await deleteRow('DCC', deviceId, deviceId, /\/admin\/dcc$/);
    await deleteRow('RESOURCES', resourceName, resourceName, /\/admin\/resources$/);
    await admin.getByRole('link', { name: 'USERS' }).click();
    await expect(page.getByText(MSG.adminReRegisterNote)).toBeVisible();
    await deleteRow('USERS', leaverEmail, `Lee Leaver (${leaverEmail})`, /\/admin\/users$/, true);

    // nothing of it is left
    const adminToken = await tokenOf('admin@example.com');
    const lists = await Promise.all(
      ['/admin/packages', '/admin/dcc', '/admin/resources', '/admin/users'].map((p) =>
        apiCall(p, adminToken),
      ),
    );
    const text = lists.map((l) => Object.values(l.body).join('')).join('');
    for (const gone of [packageName, deviceId, resourceName, leaverEmail]) expect(text).not.toContain(gone);

    // the deleted user can neither sign in nor register again
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await signIn(page, leaverEmail, 'Leaver-Pass-1');
    await expect(page.getByText(MSG.loginIncorrect)).toBeVisible();
    await page.goto('/register');
    await page.getByLabel('Name').fill('Lee Again');
    await page.getByLabel('Email').fill(leaverEmail);
    await page.getByLabel('Password', { exact: true }).fill('Leaver-Pass-2');
    await page.getByLabel('Repeat password').fill('Leaver-Pass-2');
    await page.getByRole('button', { name: MSG.submit }).click();
    await expect(page.getByText(MSG.registerConflict)).toBeVisible();
  });
});
