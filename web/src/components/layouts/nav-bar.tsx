import { Link } from 'react-router-dom';
import type { NavTab } from '@/lib/session/session-store';

export interface NavItem {
  tab: NavTab;
  label: string;
  to: string;
}

/** Spec §2.4: the navigation bar; the selected tab is underlined. */
export function NavBar({
  items,
  selected,
  label,
}: {
  items: readonly NavItem[];
  selected: NavTab | null;
  label: string;
}) {
  return (
    <nav className="frp-nav" aria-label={label}>
      <ul>
        {items.map((item) => (
          <li key={item.tab}>
            <Link to={item.to} aria-current={item.tab === selected ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
