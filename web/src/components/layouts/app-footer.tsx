import { Flex } from '@aws-amplify/ui-react';
import { env } from '@/config/env';

/** Spec §2.4: privacy, accessibility and terms links, the headquarters address, © 2024. */
export function AppFooter() {
  return (
    <footer className="frp-footer">
      <Flex justifyContent="space-between" wrap="wrap" gap="0.75rem" alignItems="center">
        <nav aria-label="Legal">
          <Flex as="ul" gap="1.25rem" wrap="wrap" margin="0" padding="0" style={{ listStyle: 'none' }}>
            <li>
              <a href={env.links.privacy} rel="noopener noreferrer">
                Privacy statement
              </a>
            </li>
            <li>
              <a href={env.links.accessibility} rel="noopener noreferrer">
                Accessibility statement
              </a>
            </li>
            <li>
              <a href={env.links.terms} rel="noopener noreferrer">
                Terms of use
              </a>
            </li>
          </Flex>
        </nav>
        <address>{env.company.address}</address>
        <span>© 2024 {env.company.name}. All rights reserved.</span>
      </Flex>
    </footer>
  );
}
