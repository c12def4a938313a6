import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ActionBar, ActionBarSpacer } from './action-bar';

describe('ActionBar', () => {
  it('is a labelled region holding the given buttons, in order, and their handlers', () => {
    const onApprove = vi.fn();
    render(
      <ActionBar label="Package actions" note="What approving records">
        <button type="button">Back</button>
        <ActionBarSpacer />
        <button type="button" onClick={onApprove}>
          Approve
        </button>
      </ActionBar>,
    );
    const bar = screen.getByRole('region', { name: 'Package actions' });
    expect(bar).toHaveClass('frp-action-bar');
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Back', 'Approve']);
    expect(within(bar).getByText('What approving records')).toBeInTheDocument();
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve' }));
    expect(onApprove).toHaveBeenCalledOnce();
  });

  it('shows no note line without a note', () => {
    const { container } = render(
      <ActionBar label="Actions">
        <button type="button">Go</button>
      </ActionBar>,
    );
    expect(container.querySelector('.frp-action-bar__note')).toBeNull();
  });
});
