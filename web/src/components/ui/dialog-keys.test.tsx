import { fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { dialogKeys } from './dialog-keys';

function Dialog({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <dialog
      open
      ref={ref}
      onKeyDown={dialogKeys(ref, { focusable: 'input, button:not([disabled])', busy, onCancel })}
    >
      <button type="button">Cancel</button>
      <input aria-label="Password" />
      <button type="button" disabled>
        Off
      </button>
      <button type="button">Sign</button>
    </dialog>
  );
}

describe('dialogKeys', () => {
  it('keeps Tab and Shift+Tab inside the dialog, skipping disabled controls', () => {
    render(<Dialog busy={false} onCancel={() => undefined} />);
    const first = screen.getByRole('button', { name: 'Cancel' });
    const last = screen.getByRole('button', { name: 'Sign' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    // in the middle, the browser moves the focus itself
    const password = screen.getByRole('textbox', { name: 'Password' });
    password.focus();
    fireEvent.keyDown(password, { key: 'Tab' });
    expect(document.activeElement).toBe(password);
  });

  it('cancels on Escape, but not while a call is under way', () => {
    const onCancel = vi.fn();
    const { rerender } = render(<Dialog busy={true} onCancel={onCancel} />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
    rerender(<Dialog busy={false} onCancel={onCancel} />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
