import { DELETION_MEANINGS } from '@shared/domain/deletion-proposals';
import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryBackend, putUser } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';

/**
 * Decision 336 in the admin screens: an administrator's account and a delivered package take two admins.
 * The delete dialog signs a proposal (the popup says it waits for a second admin), the list shows the
 * pending proposal (who, when, why), its proposer cannot confirm it, and another admin confirms it in the
 * same signature dialog.
 */
const abe = { id: 'u-admin-2', name: 'Abe Admin', email: 'admin-2@example.com', userRole: 'ADMIN' as const };

const openDelete = async (user: { click: (el: Element) => Promise<void> }) => {
  await user.click(screen.getByRole('button', { name: new RegExp(`^${MSG.deleteSelected}`) }));
  return screen.findByRole('dialog', { name: /^Delete \d+ selected/ });
};

describe('two admins delete an administrator or a delivered package', () => {
  it("proposes an administrator's deletion, shows it pending to its proposer, and refuses them confirming it", async () => {
    await putUser({ ...abe, roleStatus: 'GRANTED', emailConfirmed: true });
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Abe');
    await user.click(await screen.findByText('Abe Admin'));
    const dialog = await openDelete(user);
    expect(dialog).toHaveTextContent('· takes two admins');
    expect(dialog).toHaveTextContent('takes two admins: your signature proposes it');
    // nothing of it waits on approvals: the in-flight sentence is not said
    expect(dialog).not.toHaveTextContent('waiting for approval, signature or delivery');
    expect(dialog).toHaveTextContent(DELETION_MEANINGS.proposeDeletion);
    const sign = within(dialog).getByRole('button', { name: 'Sign and propose' });
    expect(sign).toBeDisabled();
    fill(within(dialog).getByLabelText(/^Reason for the deletion/), 'Left the company');
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(sign);

    const popup = await screen.findByRole('dialog', { name: 'Success' });
    expect(popup).toHaveTextContent(
      /^.*Waiting for a second admin to confirm the deletion of 'admin-2@example.com'/,
    );
    const stored = await memoryBackend().users.getById('u-admin-2');
    expect(stored?.deletionProposal).toMatchObject({ proposedById: 'u-admin', reason: 'Left the company' });
    await user.click(within(popup).getByRole('button', { name: MSG.close }));

    // the row says who proposed it and why; its proposer sees that it waits for a second admin
    expect(
      await screen.findByText(
        /^Deletion proposed by you on .* UTC: waiting for a second admin to confirm it$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Reason: “Left the company”')).toBeInTheDocument();
    await user.click(screen.getByText('Abe Admin'));
    const again = await openDelete(user);
    expect(within(again).getByRole('alert')).toHaveTextContent(
      'You proposed deleting Abe Admin (admin-2@example.com): waiting for a second admin to confirm it.',
    );
    expect(within(again).getByRole('button', { name: 'Waiting for a second admin' })).toBeDisabled();
  });

  it("confirms another admin's proposal to delete a delivered package in the same signature dialog", async () => {
    const packages = memoryBackend().packages;
    const delivered = (await packages.listAll()).find((p) => p.status === 'DELIVERED')!;
    const proposedAt = new Date().toISOString();
    const next = {
      ...delivered,
      deletionProposal: {
        proposedById: abe.id,
        proposedByName: abe.name,
        proposedByEmail: abe.email,
        proposedAt,
        reason: 'Recalled by the device team',
      },
      version: delivered.version + 1,
    };
    expect(await packages.save(next, { version: delivered.version, status: 'DELIVERED' })).toBe(true);
    await putUser({ ...abe, roleStatus: 'GRANTED', emailConfirmed: true });

    const { user } = renderApp('/admin/packages', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), delivered.name);
    expect(
      await screen.findByText(
        /^Deletion proposed by Abe Admin \(admin-2@example\.com\) on .* UTC: waits for your confirmation$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Reason: “Recalled by the device team”')).toBeInTheDocument();
    await user.click(screen.getByText(delivered.name));
    const dialog = await openDelete(user);
    expect(dialog).toHaveTextContent('Your signature confirms the deletion another admin proposed');
    expect(dialog).toHaveTextContent(DELETION_MEANINGS.confirmDeletion);
    fill(within(dialog).getByLabelText(/^Reason for the deletion/), 'Agreed: recalled');
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Sign and delete' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(MSG.deleted);
    await waitFor(async () => expect(await packages.get(delivered.id)).toBeNull());
  });
});
