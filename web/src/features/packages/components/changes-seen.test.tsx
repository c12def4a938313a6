import { MSG } from '@shared/messages';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryBackend, replacePackage } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { fixturePackage, mayApproveNow, openWith } from '../testing/package-test-utils';

/**
 * Decision 266: both dialogs of a review page (approve/sign and reject) state the comparison seen, send its
 * digest with the decision, and the audit record keeps it; a comparison that changed meanwhile is refused
 * and the page stays, showing the new one.
 */

/** The approver who decides here: one the policy's order lets approve now (the Technical Leader today). */
const voter = () => mayApproveNow('pk-approve-dev');

async function recordOf(id: string, action: string) {
  const { events } = await memoryBackend().packageService.history(id);
  // the voter's decisions (the seeded record holds others' earlier ones)
  return events
    .filter((e) => e.action === action && e.actorId === voter())
    .map((e) => (e.details as Record<string, unknown> | undefined)?.changesSeen);
}

async function sign(dialog: HTMLElement, reason?: string) {
  if (reason) fill(within(dialog).getByLabelText(/^Reason for the rejection/), reason);
  fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
  fireEvent.click(within(dialog).getAllByRole('button').at(-1) as HTMLElement);
}

describe('the comparison seen is stated and recorded (decision 266)', () => {
  it('approve on the header view: the dialog states it, the approval record keeps which comparison was seen', async () => {
    openWith('/packages/header/view', { as: voter(), pkg: 'pk-approve-dev', flow: 'approve' });
    const panel = await screen.findByRole('region', { name: MSG.changesTitle });
    const link = await within(panel).findByRole('link');
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.approve }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(`${MSG.changesSeen} Compared with ${link.textContent}`);
    expect(dialog).toHaveTextContent('The audit trail also keeps which comparison you saw.');
    // the type in words, its code beside
    expect(dialog).toHaveTextContent(/Development package, (un)?signed \(DEV_(UN)?SIGNED\)/);
    await sign(dialog);
    expect(await screen.findByText(MSG.approvedWaiting)).toBeInTheDocument();
    const [seen] = await recordOf('pk-approve-dev', 'APPROVED');
    expect(seen).toMatchObject({ previousPackageName: link.textContent, seenOnPage: true });
    expect((seen as { digest: string }).digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reject on the package details page: the dialog states it and the rejection record keeps it', async () => {
    openWith('/packages/approve/view', { as: voter(), pkg: 'pk-approve-dev', flow: 'approve' });
    const panel = await screen.findByRole('region', { name: MSG.changesTitle });
    const link = await within(panel).findByRole('link');
    fireEvent.click(screen.getByRole('button', { name: MSG.reject }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(`${MSG.changesSeen} Compared with ${link.textContent}`);
    expect(dialog).toHaveTextContent('The audit trail also keeps which comparison you saw.');
    await sign(dialog, 'The criteria do not match the release notes');
    expect(await screen.findByText(MSG.rejectionConfirmed)).toBeInTheDocument();
    const [seen] = await recordOf('pk-approve-dev', 'REJECTED');
    expect(seen).toMatchObject({ previousPackageName: link.textContent, seenOnPage: true });
    // the approval record says it in words
    cleanup();
    openWith('/packages/rejected/view', { as: voter(), pkg: 'pk-approve-dev', flow: 'dev' });
    expect(
      await screen.findByText(new RegExp(`Changes seen: compared with ${link.textContent}`)),
    ).toBeInTheDocument();
  });

  it('a comparison that changed since the page showed it: refused, nothing recorded, the page shows the new one', async () => {
    openWith('/packages/header/view', { as: voter(), pkg: 'pk-approve-dev', flow: 'approve' });
    const panel = await screen.findByRole('region', { name: MSG.changesTitle });
    const link = await within(panel).findByRole('link');
    const previousId = link.getAttribute('href')!.split('/').at(-1)!;
    await screen.findByRole('table', { name: 'Package header' });
    // meanwhile the previous package is no longer an approved one (here: its record says rejected)
    await replacePackage({ ...fixturePackage(previousId), status: 'REJECTED' });
    fireEvent.click(screen.getByRole('button', { name: MSG.approve }));
    await sign(await screen.findByRole('dialog'));
    expect(await screen.findByText(MSG.changesStale)).toBeInTheDocument();
    expect(await recordOf('pk-approve-dev', 'APPROVED')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: MSG.close }));
    // still on the review page, with the comparison as it is now
    await waitFor(() => expect(within(panel).queryByRole('link', { name: link.textContent! })).toBeNull());
    expect(screen.getByRole('button', { name: MSG.approve })).toBeInTheDocument();
  });
});
