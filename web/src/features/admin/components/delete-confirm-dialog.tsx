import { Button, Flex } from '@aws-amplify/ui-react';
import type { SignatureProof } from '@shared/api/contracts/packages';
import { DELETION_MEANINGS, type DeletionProposalView } from '@shared/domain/deletion-proposals';
import { GOVERNANCE_MEANINGS } from '@shared/domain/role-revocations';
import { DELETE_IN_FLIGHT_MEANING } from '@shared/domain/signature-meanings';
import { MSG } from '@shared/messages';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { dialogKeys } from '@/components/ui/dialog-keys';
import { SignatureDialog } from '@/components/ui/signature-dialog';
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
  /** an account: its deletion is always signed with a reason (decision 357) */
  signed?: boolean;
  /** the deletion another admin (or the caller) already proposed */
  proposal?: DeletionProposalView;
}

/**
 * The admin's electronic signature of a deletion (decision 196): the reason, and the proof every signature
 * dialog takes (the password, a passkey or a fresh company sign-in: decisions 322, 366).
 */
export type DeletionSignature = SignatureProof & { reason: string };

/**
 * What Delete answers: `null` when the call is settled (the caller closes the dialog and shows its popup),
 * or the server's words for a refused proof, shown in the dialog, which stays open.
 */
export type DeleteConfirm = (signature?: DeletionSignature) => Promise<string | null>;

/** The selected items with their states; those people wait on, and those two admins delete, are marked. */
function DeleteList({ noun, items }: { noun: string; items: readonly DeleteItem[] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard
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
  );
}

const names = (items: readonly DeleteItem[]) => items.map((i) => i.name).join(', ');

/**
 * 'Delete selected' asks first. The dialog lists every selected item with its state and says
 * that deletion cannot be undone; only 'Delete' deletes. Cancel and Escape close it and delete nothing.
 *
 * When a selected package is in flight (people wait on it for approval, signature or delivery), or a
 * selected item takes two admins (an administrator, a delivered package: decision 336), the deletion is an
 * electronic signature: the shared signature dialog asks for it, as for every other signature (the same
 * proofs, the stage's passkey rule), with the items marked, who is told, each meaning and the reason. A
 * refused proof keeps the dialog open and says so. A deletion the caller proposed waits for another admin:
 * the dialog says so and deletes nothing until it is deselected.
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
  const currentUserId = user?.id;
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inFlight = items.filter((i) => i.inFlight);
  const two = items.filter((i) => i.twoAdmins);
  const confirming = two.filter((i) => i.proposal && i.proposal.proposedBy.id !== currentUserId);
  // the caller's own proposal: the server refuses its confirmation (409), so the dialog says so first
  const own = two.filter((i) => i.proposal && i.proposal.proposedBy.id === currentUserId);
  const proposing = two.filter((i) => !i.proposal);
  // accounts signed by one admin; the server proposes instead where a role the policy needs would be left empty
  const accounts = items.filter((i) => i.signed && !i.twoAdmins && !i.inFlight);
  const signing = inFlight.length > 0 || two.length > 0 || accounts.length > 0;

  // the safe choice has the focus: Enter right away cancels, it does not delete
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLButtonElement>('button[data-cancel]')?.focus();
  }, []);

  const onKeyDown = dialogKeys(dialogRef, {
    focusable: '[tabindex="0"], textarea, input, button:not([disabled])',
    busy,
    onCancel,
  });

  const one = noun.replace(/s$/, '');
  const title = `Delete ${items.length} selected ${items.length === 1 ? one : noun}?`;
  if (signing && own.length === 0) {
    const it = inFlight.length === 1 ? 'it' : 'them';
    const intro = [
      'These are deleted for good. Deletion cannot be undone.',
      inFlight.length > 0
        ? `${inFlight.length === 1 ? `1 selected ${one} is` : `${inFlight.length} selected ${noun} are`} waiting for approval, signature or delivery: everyone waiting on ${it} is told by mail, with your reason. Deleting ${it} is an electronic signature; a later link to the package says who deleted it and why.`
        : '',
      proposing.length > 0
        ? `Deleting ${names(proposing)} takes two admins: your signature proposes it, and it is deleted when a second admin signs the same deletion.`
        : '',
      confirming.length > 0
        ? `Your signature confirms the deletion another admin proposed of ${names(confirming)}: it is deleted now.`
        : '',
      accounts.length > 0
        ? `Deleting an account is an electronic signature: the person reads your reason by mail. If it leaves no one holding a role the approval policy needs, your signature proposes it and a second admin must confirm it.`
        : '',
    ].filter(Boolean);
    const meanings = [
      accounts.length > 0 ? GOVERNANCE_MEANINGS.deleteAccount : '',
      inFlight.length > 0 ? DELETE_IN_FLIGHT_MEANING : '',
      proposing.length > 0 ? DELETION_MEANINGS.proposeDeletion : '',
      confirming.length > 0 ? DELETION_MEANINGS.confirmDeletion : '',
    ].filter(Boolean);
    return (
      <SignatureDialog
        action="deletePackages"
        title={title}
        intro={intro.join(' ')}
        facts={[{ label: `Selected ${noun}`, value: <DeleteList noun={noun} items={items} /> }]}
        meaning={meanings.length === 1 ? meanings[0] : meanings.map((m) => <p key={m}>{m}</p>)}
        actionLabel={proposing.length === items.length ? 'Sign and propose' : 'Sign and delete'}
        onCancel={onCancel}
        onSubmit={(proof, reason) => onConfirm({ ...proof, reason })}
      />
    );
  }
  return (
    <ModalDialog
      dialogRef={dialogRef}
      className="frp-dialog--delete"
      titleId={titleId}
      describedBy={descriptionId}
      onKeyDown={onKeyDown}
      title={title}
    >
      <p id={descriptionId} className="frp-dialog__message">
        These are deleted for good. Deletion cannot be undone.
      </p>
      {own.length > 0 ? (
        <p className="frp-dialog__message frp-delete-list__two" role="alert">
          You proposed deleting {names(own)}: waiting for a second admin to confirm it. Deselect{' '}
          {own.length === 1 ? 'it' : 'them'} to delete the rest.
        </p>
      ) : null}
      <DeleteList noun={noun} items={items} />
      <Flex justifyContent="flex-end" gap="0.75rem" marginTop="1.25rem">
        <Button data-cancel onClick={onCancel} isDisabled={busy}>
          {MSG.cancel}
        </Button>
        <Button
          variation="destructive"
          isLoading={busy}
          isDisabled={busy || own.length > 0}
          onClick={() => void onConfirm(undefined)}
        >
          {own.length > 0 ? 'Waiting for a second admin' : 'Delete'}
        </Button>
      </Flex>
    </ModalDialog>
  );
}
