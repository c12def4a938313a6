import type { BrowserContext, Page } from '@playwright/test';
import { signatureMeaning } from '../../shared/domain/signature-meanings';
import { MSG } from '../../shared/messages';
import { expect } from './support';

/** Steps in Chromium that several journeys take: screenshots at both sizes, a virtual authenticator. */

/** Shoots the page at both sizes, after checking that nothing on it runs wider than the window. */
export async function shootAt(page: Page, path: string) {
  for (const [w, h] of [
    [1366, 768],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // a string runs in the page (this file compiles without the DOM's types)
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow, `${path} at ${w}×${h} runs wider than the window`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${path}-${w}x${h}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/**
 * A virtual authenticator of the DevTools WebAuthn domain with user verification; `presence` false: it
 * waits for a touch that never comes (the page stays at its passkey prompt).
 */
export async function virtualAuthenticator(context: BrowserContext, page: Page, presence = true) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: presence,
    },
  });
  return { cdp, authenticatorId };
}

/** From the approval list to the signature dialog of a development package waiting for this person. */
export async function openApproveDialog(page: Page, packageName: string) {
  await page.goto('/packages/approve');
  await page.getByRole('tab', { name: 'Development' }).click();
  await page.getByRole('row', { name: new RegExp(packageName) }).click();
  await expect(page).toHaveURL(/\/packages\/approve\/view$/);
  await page.getByRole('button', { name: MSG.continue }).click();
  await page.getByRole('table', { name: 'Package header' }).waitFor();
  await page.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign: Approve' });
  await expect(dialog).toContainText(signatureMeaning('approve', 'DEV_UNSIGNED'));
  return dialog;
}
