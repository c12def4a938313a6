import { Button, Flex, Heading, TextAreaField } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { paths } from '@/config/paths';
import { showRefusal, showSuccess } from '@/lib/popup/popup-store';
import { rejectPackage } from '../api/decisions';
import type { RejectKind } from '../utils/package-flow';

/**
 * Spec §2.9, §4.6, §5: 'Confirm Package Rejection' asks for a reason; Reject is inactive until there is
 * one. Success says 'Your rejection was confirmed' and goes to /home; a package that moved on (409) or a
 * refused call shows the server's words.
 */
export function RejectDialog({
  pkg,
  kind,
  onCancel,
}: {
  pkg: Pick<Package, 'id' | 'name'>;
  kind: RejectKind;
  /** closes the dialog (Cancel, Escape, and once the server answered: the popup takes over) */
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const ready = reason.trim() !== '' && !busy;

  useEffect(() => {
    dialogRef.current?.querySelector('textarea')?.focus();
  }, []);

  const submit = async () => {
    if (!ready) return;
    setBusy(true);
    const result = await rejectPackage(kind, pkg.id, reason.trim());
    setBusy(false);
    onCancel();
    if (result.ok) {
      showSuccess(result.data.message || MSG.rejectionConfirmed, { to: paths.home });
      return;
    }
    if (result.status === 400) {
      showRefusal(result.status, result.error.errorMessage);
      return;
    }
    showRefusal(result.status, result.error.errorMessage, { to: paths.home });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) {
      event.preventDefault();
      onCancel();
      return;
    }
    // keep the focus inside the dialog
    if (event.key === 'Tab') {
      const focusable = [
        ...(dialogRef.current?.querySelectorAll<HTMLElement>('textarea, button:not([disabled])') ?? []),
      ];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <div className="frp-overlay">
      <dialog
        ref={dialogRef}
        open
        className="frp-dialog frp-dialog--reject"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
      >
        <Heading level={2} id={titleId} fontSize="1.125rem">
          {MSG.confirmRejectionTitle}
        </Heading>
        <p id={descriptionId} className="frp-dialog__message">
          You reject <strong>{pkg.name}</strong>. The initiator is told, with your reason.
        </p>
        <TextAreaField
          label="Reason for the rejection"
          rows={4}
          value={reason}
          isRequired
          maxLength={2000}
          onChange={(event) => setReason(event.target.value)}
          isDisabled={busy}
        />
        <Flex justifyContent="flex-end" gap="0.75rem" marginTop="1.25rem">
          <Button onClick={onCancel} isDisabled={busy}>
            {MSG.cancel}
          </Button>
          <Button variation="destructive" isDisabled={!ready} isLoading={busy} onClick={submit}>
            {MSG.reject}
          </Button>
        </Flex>
      </dialog>
    </div>
  );
}
