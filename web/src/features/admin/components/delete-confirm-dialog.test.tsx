import { PASSKEY_TEXT } from '@shared/domain/passkeys';
import { DELETE_IN_FLIGHT_MEANING, SIGNATURE_PASSWORD_WRONG } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { signIn } from '@/lib/session/session-store';
import { memoryBackend, server, storedPackage } from '@/testing/backend/server';
import { MOCK_PASSWORD, USERS } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';
import { type DeleteConfirm, DeleteConfirmDialog, type DeleteItem } from './delete-confirm-dialog';

/**
 * the admin delete dialog asks for the reason and a signature when a selected package is in flight (an
 * electronic signature, in the shared signature dialog: the password, or a passkey), and only then; a
 * refused proof keeps it open and says so.
 */
const admin = USERS.find((u) => u.id === 'u-admin')!;
const DRAFT: DeleteItem = { id: 'p1', name: 'IP-3.2.1 nightly', state: 'Draft' };
const WAITING: DeleteItem = { id: 'p2', name: 'VC-1.7.2 RC2', state: 'Waiting for approval', inFlight: true };

function open(items: DeleteItem[], onConfirm: DeleteConfirm = vi.fn(async () => null)) {
  signIn(admin);
  const onCancel = vi.fn();
  render(
    <AppProvider>
      <DeleteConfirmDialog
        noun="packages"
        items={items}
        busy={false}
        onCancel={onCancel}
        onConfirm={onConfirm}
      />
    </AppProvider>,
  );
  return { dialog: screen.getByRole('dialog') as HTMLElement, onCancel, onConfirm };
}

describe('admin delete dialog', () => {
  it('asks for no password when nothing selected is in flight, and deletes with the plain list', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm } = open([DRAFT]);
    expect(within(dialog).queryByLabelText(/^Your password/)).toBeNull();
    expect(within(dialog).queryByLabelText(/^Reason for the deletion/)).toBeNull();
    const del = within(dialog).getByRole('button', { name: 'Delete' });
    expect(del).toBeEnabled();
    await user.click(del);
    expect(onConfirm).toHaveBeenCalledWith(undefined);
  });

  it('asks for reason and password when a package is in flight, says who is told, and signs with both', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm } = open([DRAFT, WAITING]);
    expect(dialog).toHaveAccessibleName('Delete 2 selected packages?');
    expect(dialog).toHaveAccessibleDescription(DELETE_IN_FLIGHT_MEANING);
    expect(dialog).toHaveTextContent(
      /1 selected package is waiting for approval, signature or delivery: everyone waiting on it is told by mail, with your reason/,
    );
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'IP-3.2.1 nightlyDraft',
      'VC-1.7.2 RC2Waiting for approval · people wait on it',
    ]);
    const facts = within(dialog).getByLabelText('What you sign');
    expect(within(facts).getByText('Signed by').nextElementSibling).toHaveTextContent('Ada Admin, Admin');
    // the safe choice has the focus first
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toHaveFocus();
    const sign = within(dialog).getByRole('button', { name: 'Sign and delete' });
    expect(sign).toBeDisabled();
    await user.type(
      within(dialog).getByLabelText(/^Reason for the deletion/),
      '  Built from the wrong branch ',
    );
    expect(sign).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Your password/), 'secret');
    expect(sign).toBeEnabled();
    await user.click(sign);
    expect(onConfirm).toHaveBeenCalledWith({ password: 'secret', reason: 'Built from the wrong branch' });
  });

  it('keeps the dialog open on a wrong password, says so and clears the password', async () => {
    const user = userEvent.setup();
    const { dialog } = open([WAITING], async () => SIGNATURE_PASSWORD_WRONG);
    await user.type(within(dialog).getByLabelText(/^Reason for the deletion/), 'Duplicate');
    const password = within(dialog).getByLabelText(/^Your password/);
    await user.type(password, 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Sign and delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SIGNATURE_PASSWORD_WRONG);
    expect(password).toHaveValue('');
    await waitFor(() => expect(password).toHaveFocus());
    expect(within(dialog).getByLabelText(/^Reason for the deletion/)).toHaveValue('Duplicate');
  });
});

describe('admin packages screen: deleting a package in flight', () => {
  afterEach(() => server.events.removeAllListeners());

  it('sends the signature with the ids, refuses a wrong password in the dialog, and deletes with the right one', async () => {
    const bodies: unknown[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.method === 'DELETE') bodies.push(await request.clone().json());
    });
    const { user } = renderApp('/admin/packages', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'IP-3.2.2 field trial');
    await user.click(await screen.findByText('IP-3.2.2 field trial'));
    await user.click(screen.getByRole('button', { name: /^Delete selected/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 selected package?' });
    await user.type(
      within(dialog).getByLabelText(/^Reason for the deletion/),
      'Superseded by the next trial',
    );
    await user.type(within(dialog).getByLabelText(/^Your password/), 'not-it');
    await user.click(within(dialog).getByRole('button', { name: 'Sign and delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SIGNATURE_PASSWORD_WRONG);
    expect(await storedPackage('p-2')).toBeDefined();
    await user.type(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Sign and delete' }));
    expect(await screen.findByText(MSG.deleted)).toBeInTheDocument();
    expect(await storedPackage('p-2')).toBeUndefined();
    expect(bodies).toEqual([
      { ids: ['p-2'], password: 'not-it', reason: 'Superseded by the next trial' },
      { ids: ['p-2'], password: MOCK_PASSWORD, reason: 'Superseded by the next trial' },
    ]);
  });
});

/** The admin packages screen's delete dialog for a package people wait on (through the real handlers). */
async function deleteInFlight() {
  const { user } = renderApp('/admin/packages', { as: 'u-admin' });
  fill(await screen.findByLabelText('Search'), 'IP-3.2.2 field trial');
  await user.click(await screen.findByText('IP-3.2.2 field trial'));
  await user.click(screen.getByRole('button', { name: /^Delete selected/ }));
  const dialog = (await screen.findByRole('dialog', { name: 'Delete 1 selected package?' })) as HTMLElement;
  return { user, dialog };
}

describe('admin packages screen: the signature of a deletion is any signature', () => {
  it('offers the admin’s passkey, as every signature dialog does', async () => {
    const b = memoryBackend();
    const me = (await b.users.getById(admin.id))!;
    const at = new Date().toISOString();
    const passkey = {
      id: 'cred-1',
      userId: me.id,
      name: 'YubiKey',
      publicKey: 'AA',
      counter: 0,
      createdAt: at,
    };
    const next = { ...me, passkeyIds: ['cred-1'], version: me.version + 1 };
    expect(await b.passkeys.store.add(passkey, next, me.version)).toBe('ok');
    const { user, dialog } = await deleteInFlight();
    const withPasskey = await within(dialog).findByRole('button', { name: 'Sign and delete with a passkey' });
    // the reason comes first: a passkey does not sign a deletion without one
    expect(withPasskey).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Reason for the deletion/), 'Duplicate');
    expect(withPasskey).toBeEnabled();
    expect(within(dialog).getByLabelText(/^Your password/)).toHaveAccessibleDescription(
      /Or the password you sign in with/,
    );
  });

  it('on a stage that requires passkeys, tells an admin without one how to add one and offers no password', async () => {
    memoryBackend().passkeys.webauthn.required = true;
    const { dialog } = await deleteInFlight();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PASSKEY_TEXT.requiredForSignature);
    expect(within(dialog).getByRole('link', { name: 'Go to Settings → Passkeys' })).toHaveAttribute(
      'href',
      '/admin/settings?form=passkeys',
    );
    expect(within(dialog).queryByLabelText(/^Your password/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Sign and delete/ })).toBeNull();
    expect(await storedPackage('p-2')).toBeDefined();
  });
});
