import { Alert, Button, Heading } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import './packages.css';
import './review.css';
// the header editor's and view's table, after the general package styles
import './header-table.css';

/** The frame of a package screen: a card with the page header (spec §4.1: the flow sets it). */
export function PackagePage({
  title,
  aside,
  children,
  id,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  /** id of the heading (the card is labelled by it) */
  id: string;
}) {
  return (
    <section className="frp-card" aria-labelledby={id}>
      <div className="frp-pkg-titlebar">
        <Heading level={1} id={id} className="frp-page-title">
          {title}
        </Heading>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** What a step shows when the session holds no package (a bookmark, or a new tab). */
export function NoPackage({ what = 'package' }: { what?: string }) {
  const navigate = useNavigate();
  return (
    <section className="frp-card" aria-labelledby="no-package-title">
      <Heading level={1} id="no-package-title" className="frp-page-title">
        No {what} selected
      </Heading>
      <Alert variation="info" marginBottom="1rem">
        Open a package from one of the lists first.
      </Alert>
      <Button onClick={() => navigate(paths.packages.list)}>Go to the package list</Button>
    </section>
  );
}

/** A titled block inside a package page. */
export function PackageSection({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="frp-pkg-section" aria-labelledby={id}>
      <Heading level={2} id={id} className="frp-pkg-section__title">
        {title}
      </Heading>
      {children}
    </section>
  );
}
