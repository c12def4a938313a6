import { Flex } from '@aws-amplify/ui-react';
import { useSiteSettings } from '@/config/site-settings';

/**
 * Spec §2.4: privacy, accessibility and terms links, the headquarters address, © 2024. Address and links
 * are the deployment's settings (config.json, read at startup).
 */
export function AppFooter() {
  const site = useSiteSettings();
  return (
    <footer className="frp-footer">
      <Flex justifyContent="space-between" wrap="wrap" gap="0.75rem" alignItems="center">
        <nav aria-label="Legal">
          <Flex as="ul" gap="1.25rem" wrap="wrap" margin="0" padding="0" style={{ listStyle: 'none' }}>
            <li>
              <a href={site.privacyUrl} rel="noopener noreferrer">
                Privacy statement
              </a>
            </li>
            <li>
              <a href={site.accessibilityUrl} rel="noopener noreferrer">
                Accessibility statement
              </a>
            </li>
            <li>
              <a href={site.termsUrl} rel="noopener noreferrer">
                Terms of use
              </a>
            </li>
          </Flex>
        </nav>
        <address>{site.companyAddress}</address>
        <span>© 2024 {site.companyName}. All rights reserved.</span>
      </Flex>
    </footer>
  );
}
