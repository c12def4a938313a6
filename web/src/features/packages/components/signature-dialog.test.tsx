import { roleLabel } from '@shared/domain/roles';
import {
  DEVELOPMENT_MEANINGS,
  SIGNATURE_ACTION_LABELS,
  SIGNATURE_ACTIONS,
  SIGNATURE_MEANINGS,
  SIGNATURE_PASSWORD_WRONG,
  signatureMeaning,
} from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { SignatureDialog, type SignatureSubmit } from '@/components/ui/signature-dialog';
import { signIn } from '@/lib/session/session-store';
import { storedPackage } from '@/testing/backend/server';
import { MOCK_PASSWORD, USERS } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { fixturePackage, mayApproveNow, openWith } from '../testing/package-test-utils';

const base = fixturePackage('pk-approve-dev');
const pkg = { ...base, resourceFile: { ...base.resourceFile!, sha256: 'ab'.repeat(32) } };
const lead = USERS.find((u) => u.id === 'u-lead')!;

function open(action: (typeof SIGNATURE_ACTIONS)[number], onSubmit: SignatureSubmit = async () => null) {
  signIn(lead);
  const onCancel = vi.fn();
  render(
    <AppProvider>
      <SignatureDialog pkg={pkg} action={action} onCancel={onCancel} onSubmit={onSubmit} />
    </AppProvider>,
  );
  const dialog = screen.getByRole('dialog') as HTMLElement;
  const action$ = within(dialog).getByRole('button', { name: SIGNATURE_ACTION_LABELS[action] });
  return {
    dialog,
    onCancel,
    actionButton: action$,
    password: within(dialog).getByLabelText(/^Your password/),
  };
}

describe('the signature dialog (decision 141)', () => {
  it.each(SIGNATURE_ACTIONS)(
    '%s: shows what is signed, its meaning, the signer and asks for the password',
    (action) => {
      const { dialog, actionButton, password } = open(action);
      const text = dialog.textContent ?? '';
      expect(within(dialog).getByText(signatureMeaning(action, pkg.type))).toBeInTheDocument();
      expect(text).toContain(pkg.name);
      expect(text).toContain(pkg.type);
      expect(text).toContain('ab'.repeat(32));
      expect(text).toContain(lead.name);
      expect(text).toContain(roleLabel(lead.userRole));
      expect(password).toHaveAttribute('type', 'password');
      expect(password).toHaveAttribute('autocomplete', 'current-password');
      // Cancel first: Enter on an opened dialog never signs by accident
      expect(within(dialog).getByRole('button', { name: MSG.cancel })).toHaveFocus();
      expect(actionButton).toBeDisabled();
      fill(password, 'secret');
      const rejecting = action.startsWith('reject');
      expect(actionButton).toHaveProperty('disabled', rejecting);
      if (rejecting) {
        fill(within(dialog).getByLabelText(/Reason for the rejection/), 'wrong range');
        expect(actionButton).toBeEnabled();
      }
    },
  );

  it("a model's dialog shows the metadata file's SHA-256 beside the payload's; a patch's shows none (decision 190)", () => {
    signIn(lead);
    const model = fixturePackage('pk-delivered');
    const { unmount } = render(
      <AppProvider>
        <SignatureDialog pkg={model} action="sign" onCancel={vi.fn()} onSubmit={async () => null} />
      </AppProvider>,
    );
    const facts = within(screen.getByRole('dialog')).getByLabelText('What you sign');
    expect(within(facts).getByText('Payload SHA-256').nextElementSibling).toHaveTextContent(
      model.resourceFile!.sha256,
    );
    expect(within(facts).getByText('Metadata SHA-256').nextElementSibling).toHaveTextContent(
      model.resourceFile!.metadataSha256!,
    );
    unmount();
    open('approve');
    expect(within(screen.getByRole('dialog')).queryByText('Metadata SHA-256')).toBeNull();
  });

  it('every action has its own meaning, and approve says it word for word', () => {
    expect(new Set(Object.values(SIGNATURE_MEANINGS)).size).toBe(SIGNATURE_ACTIONS.length);
    expect(SIGNATURE_MEANINGS.approve).toBe(
      'I approve this package for release: I reviewed its content, header and DCC',
    );
  });

  it('a rejection says before the attempt that a reason is required', () => {
    const { dialog } = open('reject');
    const reason = within(dialog).getByLabelText(/Reason for the rejection/);
    expect(reason).toBeRequired();
    expect(reason).toHaveAccessibleDescription(/Required: the initiator reads it/);
  });

  it('a development package is approved for testing, never "for release"', () => {
    expect(pkg.type.startsWith('DEV_')).toBe(true);
    const { dialog } = open('approve');
    expect(within(dialog).getByText(DEVELOPMENT_MEANINGS.approve as string)).toBeInTheDocument();
    expect(dialog.textContent).not.toContain(SIGNATURE_MEANINGS.approve);
    expect(dialog.textContent).toContain('for testing on development devices, not for release');
  });

  it('shows a refused password inside the dialog, keeps it open and clears the password', async () => {
    const onSubmit = vi.fn<SignatureSubmit>(async () => SIGNATURE_PASSWORD_WRONG);
    const { dialog, actionButton, password } = open('approve', onSubmit);
    fill(password, 'not-it');
    fireEvent.click(actionButton);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SIGNATURE_PASSWORD_WRONG);
    expect(onSubmit).toHaveBeenCalledWith({ password: 'not-it' }, '');
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(password).toHaveValue('');
    expect(password).toHaveFocus();
    expect(actionButton).toBeDisabled();
  });

  it('passes the password and the trimmed reason of a rejection; Cancel closes without a call', async () => {
    const onSubmit = vi.fn<SignatureSubmit>(async () => null);
    const { dialog, actionButton, password, onCancel } = open('rejectDelivery', onSubmit);
    fill(within(dialog).getByLabelText(/Reason for the rejection/), '  not this week ');
    fill(password, 'pw');
    fireEvent.click(actionButton);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ password: 'pw' }, 'not this week'));
    // the dialog is busy while the submit settles: wait for that state to end, not for time
    const cancel = within(dialog).getByRole('button', { name: MSG.cancel });
    await waitFor(() => expect(cancel).toBeEnabled());
    fireEvent.click(cancel);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe('signing through the app (the backend checks the password)', () => {
  it('a wrong password is said in the dialog and changes nothing; the right one approves', async () => {
    const approver = USERS.find((u) => u.id === mayApproveNow('pk-approve-dev'))!;
    openWith('/packages/header/view', { as: approver.id, pkg: 'pk-approve-dev', flow: 'approve' });
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.approve }));
    const dialog = (await screen.findByRole('dialog', { name: 'Sign: Approve' })) as HTMLElement;
    expect(dialog).toHaveTextContent(approver.name);
    fill(within(dialog).getByLabelText(/^Your password/), 'wrong');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText(SIGNATURE_PASSWORD_WRONG)).toBeInTheDocument();
    const stored = await storedPackage('pk-approve-dev');
    expect(stored?.approvers.find((a) => a.user.id === approver.id)?.approved).toBe(false);
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(MSG.approvedWaiting)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Sign: Approve' })).not.toBeInTheDocument();
    expect(
      (await storedPackage('pk-approve-dev'))?.approvers.find((a) => a.user.id === approver.id),
    ).toMatchObject({
      approved: true,
    });
  });
});
