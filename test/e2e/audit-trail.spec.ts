import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { pdfPages } from '../support/pdf-text';
import { apiUrl, expect, signIn, test } from './support';

/**
 * The audit trail screen (decisions 346–348): an admin filters by a user and a date range and exports the
 * view as CSV and PDF; screenshots at 1366×768 and 1920×1080 (SHOTS_DIR, e.g. docs/screenshots).
 */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/e2e/audit-trail';
const today = () => new Date().toISOString().slice(0, 10);

for (const [width, height] of [
  [1366, 768],
  [1920, 1080],
] as const) {
  test(`an admin filters the audit trail by a user and a date range and exports CSV and PDF (${width}×${height})`, async ({
    page,
    a11y,
  }) => {
    await page.setViewportSize({ width, height });
    // Dana Dev signs in: a SIGNED_IN event of hers, today
    const login = await fetch(apiUrl('/user/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: 'design-engineer-dev@example.com', password: SEED_PASSWORD }),
    });
    expect(login.status).toBe(200);

    await signIn(page, 'admin@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'AUDIT' })
      .click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
    const rows = page.locator('table.audit-table tbody tr');
    await expect(rows.first()).toBeVisible();

    const who = page.getByLabel('Who');
    await expect(who.locator('option', { hasText: 'Dana Dev' })).toHaveCount(1);
    await who.selectOption({ label: 'Dana Dev (design-engineer-dev@example.com)' });
    await page.getByLabel('From (UTC)').fill(today());
    await page.getByLabel('To (UTC)').fill(today());
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect(rows.first()).toContainText('Dana Dev');
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      await expect(rows.nth(i)).toContainText('Dana Dev');
      await expect(rows.nth(i).locator('td').first()).toContainText(today());
    }
    await expect(rows.first()).toContainText('chain intact');
    await rows.first().getByText('Details').click();
    await expect(rows.first().locator('pre')).toContainText('"hash"');
    await a11y(page, '/admin/audit filtered by a user and a date');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `audit-trail-${width}x${height}.png`) });

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^audit-trail-.+\.csv$/);
    const csvText = readFileSync(await csv.path(), 'utf8');
    const lines = csvText.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'at,subject,seq,actorId,actorName,actorRole,action,meaning,details,chain,prevHash,hash',
    );
    expect(lines).toHaveLength(count + 1);
    expect(
      // an event made with one of Dana's access tokens names the token beside her name
      lines.slice(1).every((l) => /,Dana Dev[^,]*,DESIGN_ENGINEER_DEV,/.test(l) && l.startsWith(today())),
    ).toBe(true);
    await expect(page.getByText(/\.csv: \d+ events?, digest [0-9a-f]{64}/)).toBeVisible();

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    const text = (await pdfPages(new Uint8Array(readFileSync(await pdf.path())))).join('\n');
    expect(text).toContain(`from ${today()}, to ${today()}`);
    expect(text).toContain('by Ada Admin (ADMIN');
    expect(text).toMatch(/Page 1 of \d+/);
    expect(text).toContain('Dana Dev (DESIGN_ENGINEER_DEV)');
    await page.screenshot({ path: join(SHOTS, `audit-trail-exported-${width}x${height}.png`) });
  });
}
