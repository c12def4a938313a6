import { Heading } from '@aws-amplify/ui-react';
import type { KeyboardEventHandler, ReactNode, Ref } from 'react';

/**
 * The portal's modal dialog: an open <dialog> over the page's overlay, named by its heading (`titleId`)
 * and described by the element `describedBy`; `onKeyDown` keeps focus inside it (dialogKeys).
 */
export function ModalDialog({
  dialogRef,
  className,
  role,
  titleId,
  describedBy,
  onKeyDown,
  title,
  children,
}: {
  dialogRef?: Ref<HTMLDialogElement>;
  /** classes beside frp-dialog (its kind) */
  className: string;
  role?: 'alertdialog';
  titleId: string;
  describedBy: string;
  onKeyDown: KeyboardEventHandler<HTMLDialogElement>;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="frp-overlay">
      <dialog
        ref={dialogRef}
        open
        className={`frp-dialog ${className}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onKeyDown={onKeyDown}
      >
        <Heading level={2} id={titleId} fontSize="1.125rem">
          {title}
        </Heading>
        {children}
      </dialog>
    </div>
  );
}
