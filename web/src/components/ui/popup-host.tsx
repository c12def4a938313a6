import { Button } from '@aws-amplify/ui-react';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { type PopupKind, popups, usePopup } from '@/lib/popup/popup-store';

const TITLES: Record<PopupKind, string> = {
  session: 'Session ended',
  error: 'Error',
  warning: 'Warning',
  success: 'Success',
};

/** The shared popup of spec §8: one message, one button; modal, focus on its button. */
export function PopupHost() {
  const popup = usePopup();
  const navigate = useNavigate();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    if (popup) buttonRef.current?.focus();
  }, [popup]);

  if (!popup) return null;

  const act = () => {
    popups.close();
    popup.onClose?.();
    if (popup.to) navigate(popup.to);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      act();
    }
    // one control in the dialog: keep the focus on it
    if (event.key === 'Tab') {
      event.preventDefault();
      buttonRef.current?.focus();
    }
  };

  return (
    <ModalDialog
      className={`frp-dialog--${popup.kind}`}
      role={popup.kind === 'success' ? undefined : 'alertdialog'}
      titleId={titleId}
      describedBy={messageId}
      onKeyDown={onKeyDown}
      title={TITLES[popup.kind]}
    >
      <p id={messageId} className="frp-dialog__message">
        {popup.message}
      </p>
      <Button ref={buttonRef} variation="primary" onClick={act}>
        {popup.buttonLabel}
      </Button>
    </ModalDialog>
  );
}
