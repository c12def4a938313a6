import { Button, Flex } from '@aws-amplify/ui-react';
import { DELETION_MEANINGS, type DeletionProposalView } from '@shared/domain/deletion-proposals';
import { roleLabel } from '@shared/domain/roles';
import { DELETE_IN_FLIGHT_MEANING } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { dialogKeys } from '@/components/ui/dialog-keys';
import { SignaturePassword, SignatureReason } from '@/components/ui/signature-password';
import { useSession } from '@/lib/session/session-store';
import './delete-confirm-dialog.css';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { DeletionProposalNote } from './deletion-proposal';

export interface DeleteItem {
  id: string;
  name: string;
  /** the item's state in words (a package's status, a user's role and role status, …) */
  state: ReactNode;
  /** people wait on it (a package in flight): deleting it is an electronic signature */
  inFlight?: boolean;
  /** an administrator or a delivered package: two admins sign its deletion (decision 336) */
  twoAdmins?: boolean;
  /** the deletion another admin (or the caller) already proposed */
  proposal?: DeletionProposalView;
}

/** The admin's electronic signature of a deletion: password and reason (decision 196). */
export interface DeletionSignature {
  password: string;
  reason: string;
}

/**
 * What Delete answers: `null` when the call is settled (the caller closes the dialog and shows its popup),
 * or the server's words for a wrong password, shown in the dialog, which stays open.
 */
export type DeleteConfirm = (signature?: DeletionSignature) => Promise<string | null>;

/**
 * 'Delete selected' asks first. The dialog lists every selected item with its state and says
 * that deletion cannot be undone; only 'Delete' deletes. Cancel and Escape close it and delete nothing.
 *
 * when a selected package is in flight (people wait on it for approval, signature or delivery),
 * the deletion is an electronic signature: the dialog marks those packages, says that everyone waiting on
 * them is told by mail, shows the meaning and who signs, and asks for the reason and the admin's password;
 * Delete is active once both are given. A wrong password keeps the dialog open and says so.
 */
export function DeleteConfirmDialog({
  noun,
  items,
  busy,
  onCancel,
  onConfirm,
}: {
  /** what is deleted, plural ('packages', 'users', …) */
  noun: string;
  items: readonly DeleteItem[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: DeleteConfirm;
}) {
  const { user } = useSession();
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<{ text: string; attempt: number } | null>(null);
  const inFlight = items.filter((i) => i.inFlight);
  const two = items.filter((i) => i.twoAdmins);
  const confirming = two.filter((i) => i.proposal && i.proposal.proposedBy.id !== user?.id);
  // the caller's own proposal: the server refuses its confirmation (409), so the dialog says so first
  const own = two.filter((i) => i.proposal?.proposedBy.id === user?.id);
  const proposing = two.filter((i) => !i.proposal);
  const signing = inFlight.length > 0 || two.length > 0;
  const ready = !busy && own.length === 0 && (!signing || (password !== '' && reason.trim() !== ''));

  // the safe choice has the focus: Enter right away cancels, it does not delete
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLButtonElement>('button[data-cancel]')?.focus();
  }, []);
  // after a refused password: straight back to the password
  useEffect(() => {
    if (refusal) passwordRef.current?.focus();
  }, [refusal]);

  const onKeyDown = dialogKeys(dialogRef, {
    focusable: '[tabindex="0"], textarea, input, button:not([disabled])',
    busy,
    onCancel,
  });

  const confirm = async () => {
    if (!ready) return;
    setRefusal(null);
    const refused = await onConfirm(signing ? { password, reason: reason.trim() } : undefined);
    if (typeof refused === 'string') {
      setRefusal((r) => ({ text: refused, attempt: (r?.attempt ?? 0) + 1 }));
      setPassword('');
    }
  };

  const one = noun.replace(/s$/, '');
  return (
    <ModalDialog
      dialogRef={dialogRef}
      className={`frp-dialog--delete${signing ? ' frp-dialog--delete-signed' : ''}`}
      titleId={titleId}
      describedBy={descriptionId}
      onKeyDown={onKeyDown}
      title={`Delete ${items.length} selected ${items.length === 1 ? one : noun}?`}
    >
      <p id={descriptionId} className="frp-dialog__message">
        These are deleted for good. Deletion cannot be undone.
        {inFlight.length > 0
          ? ` ${inFlight.length === 1 ? `1 selected ${one} is` : `${inFlight.length} selected ${noun} are`} waiting for approval, signature or delivery: everyone waiting on ${inFlight.length === 1 ? 'it' : 'them'} is told by mail, with your reason. Deleting ${inFlight.length === 1 ? 'it' : 'them'} is an electronic signature.`
          : ''}
        {proposing.length > 0
          ? ` Deleting ${proposing.map((i) => i.name).join(', ')} takes two admins: your signature proposes it, and it is deleted when a second admin signs the same deletion.`
          : ''}
        {confirming.length > 0
          ? ` Your signature confirms the deletion another admin proposed of ${confirming.map((i) => i.name).join(', ')}: it is deleted now.`
          : ''}
      </p>
      {own.length > 0 ? (
        <p className="frp-dialog__message frp-delete-list__two" role="alert">
          You proposed deleting {own.map((i) => i.name).join(', ')}: waiting for a second admin to confirm it.
          Deselect {own.length === 1 ? 'it' : 'them'} to delete the rest.
        </p>
      ) : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard */}
      <ul className="frp-delete-list" aria-label={`Selected ${noun}`} tabIndex={0}>
        {items.map((item) => (
          <li key={item.id} className="frp-delete-list__item">
            <span className="frp-delete-list__name">{item.name}</span>
            <span className="frp-delete-list__state">
              {item.state}
              {item.inFlight ? <span className="frp-delete-list__flight"> · people wait on it</span> : null}
              {item.twoAdmins ? <span className="frp-delete-list__two"> · takes two admins</span> : null}
            </span>
            {/* under the name and state, the whole width: who proposed it, when and why */}
            <DeletionProposalNote proposal={item.proposal} />
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        {signing ? (
          <div className="frp-delete-sig">
            <div className="frp-delete-sig__meaning">
              <span className="frp-delete-sig__label">Meaning of your signature</span>
              {inFlight.length > 0 ? <blockquote>{DELETE_IN_FLIGHT_MEANING}</blockquote> : null}
              {proposing.length > 0 ? <blockquote>{DELETION_MEANINGS.proposeDeletion}</blockquote> : null}
              {confirming.length > 0 ? <blockquote>{DELETION_MEANINGS.confirmDeletion}</blockquote> : null}
              <span className="frp-delete-sig__note">
                Signed by {user ? `${user.name}, ${roleLabel(user.userRole)}` : 'you'}; recorded with the
                reason and the time (UTC) in the audit trail.{' '}
                {inFlight.length > 0 ? 'A later link to the package says who deleted it and why.' : ''}
              </span>
            </div>
            <SignatureReason
              label="Reason for the deletion"
              rows={2}
              value={reason}
              onChange={setReason}
              busy={busy}
            />
            <SignaturePassword
              inputRef={passwordRef}
              name="deletion-password"
              value={password}
              onChange={setPassword}
              busy={busy}
              refusal={refusal?.text ?? null}
            />
          </div>
        ) : null}
        <Flex justifyContent="flex-end" gap="0.75rem" marginTop="1.25rem">
          <Button data-cancel onClick={onCancel} isDisabled={busy}>
            {MSG.cancel}
          </Button>
          <Button type="submit" variation="destructive" isLoading={busy} isDisabled={!ready}>
            {!signing
              ? 'Delete'
              : own.length === items.length
                ? 'Waiting for a second admin'
                : proposing.length > 0 && proposing.length === items.length
                  ? 'Sign and propose'
                  : 'Sign and delete'}
          </Button>
        </Flex>
      </form>
    </ModalDialog>
  );
}
