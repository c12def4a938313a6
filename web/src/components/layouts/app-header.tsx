import { Flex } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';

/** Spec §1: the title, a logo linking to /home, and what the layout puts on the right. */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="frp-header">
      <Flex justifyContent="space-between" alignItems="center" gap="1rem" minHeight="2.5rem">
        <Link to={paths.home} className="frp-header__brand" aria-label="Firmware Release Portal, home">
          <Logo size={36} />
          <span className="frp-header__title">Firmware Release Portal</span>
        </Link>
        <Flex alignItems="center" gap="0.75rem">
          {children}
        </Flex>
      </Flex>
    </header>
  );
}
