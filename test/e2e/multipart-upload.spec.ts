import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MSG } from '../../shared/messages';
import { expect, signIn, test } from './support';

/** the end of the message of a stopped upload (web/src/features/upload/api/upload-resource.ts RESUME_HINT) */
const RESUME_HINT = 'choose the same file again and press Upload to send the rest';

/**
 * A resource from 16 MiB goes as a presigned multipart upload. When a part cannot be sent
 * the upload stops with a message that it is kept; choosing the same file again sends only what S3
 * does not hold, and the resource is registered.
 */
test('a large patch uploads in parts, stops when a part cannot be sent, and resumes with the missing part only', async ({
  page,
}) => {
  const name = `pump-fw-large-${Date.now().toString(36)}`;
  // a file on disk: the browser reads it by path (a 20 MiB buffer through the protocol is slow)
  const dir = mkdtempSync(join(tmpdir(), 'e2e-multipart-'));
  const file = join(dir, 'pump-fw-large.bin');
  writeFileSync(file, randomBytes(20 * 1024 * 1024 + 7));
  page.on('close', () => rmSync(dir, { recursive: true, force: true }));
  await signIn(page, 'design-engineer-dev@example.com');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'UPLOAD' }).click();
  await page.getByLabel('Patch name').fill(name);
  await page.locator('input[type=file]').first().setInputFiles(file);

  const sent: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'PUT' && u.searchParams.has('partNumber'))
      sent.push(u.searchParams.get('partNumber')!);
    if (u.pathname.endsWith('/parts') && r.method() === 'GET') sent.push('list');
  });
  // the storage never answers for part 3 (a dropped connection)
  await page.route(/partNumber=3(&|$)/, (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading' })).toBeVisible();
  await expect(page.getByText(RESUME_HINT, { exact: false })).toBeVisible({ timeout: 60_000 });
  expect(sent.filter((p) => p === '1' || p === '2').sort()).toEqual(['1', '2']);
  // the error popup leads home; the user comes back to the form later
  await page.getByRole('button', { name: 'To home page' }).click();

  // the connection is back: the same file, Upload again
  await page.unroute(/partNumber=3(&|$)/);
  sent.length = 0;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'UPLOAD' }).click();
  await page.getByLabel('Patch name').fill(name);
  await page.locator('input[type=file]').first().setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  // the parts are in S3; the server checks the file off the request (decision 173) and the page follows
  await expect(page.getByRole('progressbar', { name: 'Checking the file (size and SHA-256)' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText('it is registered when the check is done', { exact: false })).toBeVisible();
  await expect(page.getByText(MSG.uploaded)).toBeVisible({ timeout: 60_000 });
  expect(sent).toEqual(['list', '3']);
  await page.getByRole('button', { name: MSG.close }).click();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PATCHES' }).click();
  await expect(page.getByText(name)).toBeVisible();
});
