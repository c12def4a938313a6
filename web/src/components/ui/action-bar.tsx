import type { ReactNode } from 'react';
import './action-bar.css';

/**
 * A page's main actions in a bar that stays on screen (decision 151): it sticks to the
 * bottom of the viewport while the page above it scrolls, and sits in its place once the page's end is
 * reached. It only places the buttons it is given; what they do stays with the page.
 */
export function ActionBar({
  label,
  note,
  children,
}: {
  label: string;
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={label} className="frp-action-bar">
      {note ? <div className="frp-action-bar__note">{note}</div> : null}
      <div className="frp-action-bar__buttons">{children}</div>
    </section>
  );
}

/** Pushes the buttons after it to the bar's right end. */
export const ActionBarSpacer = () => <span className="frp-action-bar__spacer" />;
