import { Alert, Heading, Text } from '@aws-amplify/ui-react';
import { useMatches } from 'react-router-dom';
import { useSession } from '@/lib/session/session-store';

/**
 * PLACEHOLDER until issue 6 (package lists, creation flow, header editor, detail pages): the route
 * exists and is guarded, and shows its title (from the route handle; '' = the session's subHeader). Replace each use with the real screen.
 */
export function ComingSoonPage() {
  const { subHeader, resource } = useSession();
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as { title?: string } | undefined)?.title ?? '';
  return (
    <section className="frp-card" aria-labelledby="coming-soon-title" data-testid="coming-soon">
      <Heading level={1} id="coming-soon-title" className="frp-page-title">
        {title === '' ? subHeader : title}
      </Heading>
      {resource && title === '' ? <Text marginBottom="1rem">Resource: {resource.name}</Text> : null}
      <Alert variation="info" heading="Coming soon">
        This screen is not available yet.
      </Alert>
    </section>
  );
}
