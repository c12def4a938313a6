/**
 * `npm run screenshots`: a short tour of the main screens, one PNG each, into docs/screenshots/ (used by
 * the README). Starts its own local stack on free ports with a throw-away data folder, seeds a package
 * through the API so the lists are not empty, and drives Debian's Chromium.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { SEED_PASSWORD } from '../shared/domain/seed-users';
import { CHROMIUM_LAUNCH } from '../test/support/chromium';
import { startStackProcess } from '../test/support/stack-process';

const out = resolve('docs/screenshots');
mkdirSync(out, { recursive: true });
const stack = await startStackProcess({ LOGIN_MAX_FAILURES_PER_SOURCE: '100000' });
const api = async (path: string, token: string | null, init: RequestInit = {}) => {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (typeof init.body === 'string') headers['Content-Type'] = 'application/json';
  const r = await fetch(`${stack.url}/dev${path}`, { ...init, headers });
  return (await r.json()) as Record<string, string>;
};
const tokenOf = async (email: string) =>
  (
    await api('/user/login', null, {
      method: 'POST',
      body: JSON.stringify({ login: email, password: SEED_PASSWORD }),
    })
  ).token!;

try {
  // sample data: a release patch, a model, a package waiting for approval
  const dev = await tokenOf('design-engineer-dev@example.com');
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(64 * 1024)]), 'infusion-pump-fw-3.2.0.bin');
  const res = JSON.parse(
    (await api('/resources/patch/release?name=infusion-pump-fw-3.2.0', dev, { method: 'POST', body: form }))
      .resource!,
  );
  const pkg = JSON.parse(
    (
      await api(`/resources/${res.id}/generate-package`, dev, {
        method: 'POST',
        body: JSON.stringify({
          packageName: 'Infusion pump 3.2.0',
          packageType: 'RELEASE_SIGNED',
          note: 'Occlusion alarm threshold fix',
        }),
      })
    ).package!,
  );
  const dcc = (
    await api('/dcc', dev, {
      method: 'POST',
      body: JSON.stringify({
        deviceId: 'IP-4000',
        telemetryType: 'TelA',
        messageLimit: 64,
        deviceLimit: 4096,
      }),
    })
  ).dccUuid;
  await api(`/packages/${pkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const candidates = JSON.parse(
    (await api(`/packages/${pkg.id}/approvers?signers=true`, dev)).approvers!,
  ) as Record<string, { id: string }[]>;
  const signers = JSON.parse((await api(`/packages/${pkg.id}/approvers?signers=true`, dev)).signers!) as {
    id: string;
  }[];
  await api(`/packages/${pkg.id}/notify-approvers`, dev, {
    method: 'POST',
    body: JSON.stringify({
      approvers: Object.entries(candidates).map(([role, users]) => ({ role, id: users[0]!.id })),
      signer: signers[0]!.id,
    }),
  });

  // two development packages, so the Development tab (the one the list opens on) is not empty
  const devForm = new FormData();
  devForm.append('resourceFile', new Blob([new Uint8Array(48 * 1024)]), 'infusion-pump-fw-3.3.0-rc1.bin');
  const devRes = JSON.parse(
    (
      await api('/resources/patch/dev?name=infusion-pump-fw-3.3.0-rc1', dev, {
        method: 'POST',
        body: devForm,
      })
    ).resource!,
  );
  for (const [packageName, packageType, note] of [
    ['Infusion pump 3.3.0 RC1 bench build', 'DEV_UNSIGNED', 'Bench tests of the new dosing limits'],
    ['Infusion pump 3.3.0 RC1 ward trial', 'DEV_SIGNED', 'Signed build for the ward 4 trial devices'],
  ])
    await api(`/resources/${devRes.id}/generate-package`, dev, {
      method: 'POST',
      body: JSON.stringify({ packageName, packageType, note }),
    });

  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const shoot = async (page: Page, name: string, path: string) => {
    await page.goto(`${stack.url}${path}`);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: resolve(out, `${name}.png`) });
    console.log(`docs/screenshots/${name}.png`);
  };
  const as = async (email: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/(home|admin)$/);
    return page;
  };

  const anon = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await shoot(anon, '01-login', '/login');
  const engineer = await as('design-engineer-dev@example.com');
  await shoot(engineer, '02-home', '/home');
  await shoot(engineer, '03-patches', '/patches');
  await shoot(engineer, '04-upload', '/upload');
  await shoot(engineer, '05-packages', '/packages');
  // an approver's list: the release package waits for the technical leader
  const leader = await as('technical-leader@example.com');
  await leader.goto(`${stack.url}/packages/approve`);
  await leader.getByRole('tab', { name: 'Release' }).click();
  await leader.getByText('Infusion pump 3.2.0').waitFor();
  await leader.screenshot({ path: resolve(out, '06-approval.png') });
  console.log('docs/screenshots/06-approval.png');
  const admin = await as('admin@example.com');
  await shoot(admin, '08-admin-resources', '/admin/resources');

  // a development package rejected by the leader; the next one starts from it
  const rejectedPkg = JSON.parse(
    (
      await api(`/resources/${devRes.id}/generate-package`, dev, {
        method: 'POST',
        body: JSON.stringify({
          packageName: 'Infusion pump 3.3.0 RC1 first try',
          packageType: 'DEV_UNSIGNED',
          note: 'Dosing limits, first try',
        }),
      })
    ).package!,
  );
  await api(`/packages/${rejectedPkg.id}/dcc/${dcc}`, dev, { method: 'POST' });
  const devCandidates = JSON.parse(
    (await api(`/packages/${rejectedPkg.id}/approvers`, dev)).approvers!,
  ) as Record<string, { id: string }[]>;
  await api(`/packages/${rejectedPkg.id}/notify-approvers`, dev, {
    method: 'POST',
    body: JSON.stringify({
      approvers: Object.entries(devCandidates).map(([role, users]) => ({ role, id: users[0]!.id })),
    }),
  });
  await api(`/packages/${rejectedPkg.id}/reject`, await tokenOf('technical-leader@example.com'), {
    method: 'POST',
    body: JSON.stringify({ 'rejection-reason': 'Package Id must be 31338', password: SEED_PASSWORD }),
  });
  await engineer.goto(`${stack.url}/patches`);
  await engineer.getByRole('tab', { name: 'Dev' }).click();
  await engineer.getByRole('row', { name: /infusion-pump-fw-3\.3\.0-rc1/ }).click();
  await engineer.getByRole('button', { name: 'Create Package' }).click();
  const startFrom = engineer.getByRole('group', { name: 'Start from an earlier package' });
  await startFrom.waitFor();
  await engineer.getByLabel('Note').fill('Dosing limits, second try');
  await startFrom.scrollIntoViewIfNeeded();
  await engineer.screenshot({ path: resolve(out, '09-start-from-rejected.png') });
  console.log('docs/screenshots/09-start-from-rejected.png');
  await engineer.getByRole('button', { name: 'Continue' }).click();
  await engineer.getByRole('table', { name: 'Package header' }).waitFor();
  await engineer.getByLabel('Package Id (decimal)').fill('31338');
  await engineer.getByText(/^Saved \d\d:\d\d$/).waitFor();
  await engineer.screenshot({ path: resolve(out, '10-header-started-from-and-saved.png') });
  console.log('docs/screenshots/10-header-started-from-and-saved.png');
  await browser.close();
} finally {
  await stack.stop();
}
