import { Heading } from '@aws-amplify/ui-react';
import { Link } from 'react-router-dom';
import { BrandHero } from '@/components/ui/brand-hero';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { useSession } from '@/lib/session/session-store';
import { listAdmin } from '../api/admin-api';
import '@/components/ui/work-waiting.css';

/**
 * Spec §2.3 admin home page (also shown for unknown paths under /admin); below the slogan and logo, what
 * waits for administrators (issue 23): role requests, grant proposals this admin can confirm, and their
 * own proposals waiting for another admin, with a link to the users list (which shows them first).
 */
export function AdminHome() {
  const me = useSession().user?.id;
  const query = useApiQuery((signal) => listAdmin('users', signal), []);
  const users = query.data ?? [];
  const requests = users.filter((u) => u.roleStatus === 'REQUESTED' && !u.roleProposal).length;
  const toConfirm = users.filter((u) => u.roleProposal && u.roleProposal.proposedBy.id !== me).length;
  const mine = users.filter((u) => u.roleProposal?.proposedBy.id === me).length;
  const counts = [
    { id: 'requests', n: requests, text: 'role requests wait for a decision (grant or refuse)' },
    { id: 'confirm', n: toConfirm, text: 'grant proposals by another admin wait for your confirmation' },
    { id: 'mine', n: mine, text: 'of your grant proposals wait for a second admin' },
  ];
  return (
    <>
      <BrandHero />
      <section className="frp-card frp-work" aria-labelledby="frp-admin-waiting" aria-busy={query.loading}>
        <Heading level={2} id="frp-admin-waiting" className="frp-work__title">
          Waiting for administrators
          {!query.loading && requests + toConfirm > 0 ? (
            <span className="frp-work__total">{requests + toConfirm}</span>
          ) : null}
        </Heading>
        {query.loading ? (
          <p role="status" className="frp-work__note">
            Looking for what waits…
          </p>
        ) : query.failed ? (
          <p className="frp-work__note">What waits could not be loaded. Reload the page to try again.</p>
        ) : (
          <>
            <ul className="frp-work__list" aria-label="Counts">
              {counts.map((c) => (
                <li key={c.id} className="frp-work__row" data-count={c.id}>
                  <span className="frp-work__count">{c.n}</span> {c.text}
                </li>
              ))}
            </ul>
            <p className="frp-work__links">
              <Link to={paths.admin.users}>Open the users list to decide</Link>
            </p>
          </>
        )}
      </section>
    </>
  );
}
