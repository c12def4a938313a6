import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { dialogKeys } from '@/components/ui/dialog-keys';
import './delete-confirm-dialog.css';

export interface DeleteItem {
  id: string;
  name: string;
  /** the item's state in words (a package's status, a user's role and role status, …) */
  state: ReactNode;
}

/**
 * Issue 16: 'Delete selected' asks first. The dialog lists every selected item with its state and says
 * that deletion cannot be undone; only 'Delete' deletes. Cancel and Escape close it and delete nothing.
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
  onConfirm: () => void;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);

  // the safe choice has the focus: Enter right away cancels, it does not delete
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLButtonElement>('button[data-cancel]')?.focus();
  }, []);

  const onKeyDown = dialogKeys(dialogRef, {
    focusable: '[tabindex="0"], button:not([disabled])',
    busy,
    onCancel,
  });

  return (
    <div className="frp-overlay">
      <dialog
        ref={dialogRef}
        open
        className="frp-dialog frp-dialog--delete"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
      >
        <Heading level={2} id={titleId} fontSize="1.125rem">
          {`Delete ${items.length} selected ${items.length === 1 ? noun.replace(/s$/, '') : noun}?`}
        </Heading>
        <p id={descriptionId} className="frp-dialog__message">
          These are deleted for good. Deletion cannot be undone.
        </p>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard */}
        <ul className="frp-delete-list" aria-label={`Selected ${noun}`} tabIndex={0}>
          {items.map((item) => (
            <li key={item.id} className="frp-delete-list__item">
              <span className="frp-delete-list__name">{item.name}</span>
              <span className="frp-delete-list__state">{item.state}</span>
            </li>
          ))}
        </ul>
        <Flex justifyContent="flex-end" gap="0.75rem" marginTop="1.25rem">
          <Button data-cancel onClick={onCancel} isDisabled={busy}>
            {MSG.cancel}
          </Button>
          <Button variation="destructive" isLoading={busy} isDisabled={busy} onClick={onConfirm}>
            Delete
          </Button>
        </Flex>
      </dialog>
    </div>
  );
}
