import type { KeyboardEvent, RefObject } from 'react';

/**
 * The keys of a modal dialog: Escape cancels (unless a call is under way), Tab and Shift+Tab cycle through
 * the dialog's own controls (`focusable`, a CSS selector) and never leave it.
 */
export function dialogKeys(
  dialogRef: RefObject<HTMLElement | null>,
  opts: { focusable: string; busy: boolean; onCancel: () => void },
) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !opts.busy) {
      event.preventDefault();
      opts.onCancel();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>(opts.focusable) ?? [])];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
}
