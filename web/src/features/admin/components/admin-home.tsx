import { Heading } from '@aws-amplify/ui-react';
import type { PublicUser } from '@shared/api/contracts/user';
import { roleLabel } from '@shared/domain/roles';
import { Link } from 'react-router-dom';
import { BrandHero } from '@/components/ui/brand-hero';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import { useSession } from '@/lib/session/session-store';
import { listAdmin } from '../api/admin-api';
import '@/components/ui/work-waiting.css';

type WaitKind = 'confirm' | 'requests' | 'mine';

/** At most this many accounts per kind on the home page; the users list has them all, first. */
const SHOWN = 8;

/** Each kind of waiting decision: its group title and what the admin does (say what waits). */
const KINDS: readonly { kind: WaitKind; title: string; action: string; none: string }[] = [
  {
    kind: 'confirm',
    title: 'Grant proposals to confirm',
    action: 'Confirm or refuse',
    none: 'No grant proposal by another admin waits for your confirmation.',
  },
  {
    kind: 'requests',
    title: 'Role requests',
    action: 'Grant or refuse',
    none: 'No role request waits for a decision.',
  },
  {
    kind: 'mine',
    title: 'Your proposals, waiting for a second admin',
    action: 'See it',
    none: 'None of your grant proposals waits for a second admin.',
  },
];

/** What waits for administrators, by kind: a proposal another admin made comes before a plain request. */
export function waitingForAdmins(users: readonly PublicUser[], me: string | undefined) {
  return {
    confirm: users.filter((u) => u.roleProposal && u.roleProposal.proposedBy.id !== me),
    requests: users.filter((u) => u.roleStatus === 'REQUESTED' && !u.roleProposal),
    mine: users.filter((u) => u.roleProposal?.proposedBy.id === me),
  } satisfies Record<WaitKind, PublicUser[]>;
}

/** One waiting user: who, which role, and who proposed it (a proposal). */
function detailOf(kind: WaitKind, u: PublicUser): string {
  const role = roleLabel(u.roleProposal?.role ?? u.userRole);
  if (kind === 'requests') return `asks for ${role}`;
  if (kind === 'mine') return `you proposed ${role}`;
  return `${u.roleProposal?.proposedBy.name ?? 'another admin'} proposed ${role}`;
}

/**
 * Spec §2.3 admin home page (also shown for unknown paths under /admin); below the slogan and logo, what
 * waits for administrators: the count of decisions this admin can take in the heading,
 * then each kind with its count and every waiting account (name, email, the role and who proposed it),
 * each a link to the users list, which shows them first.
 */
export function AdminHome() {
  const me = useSession().user?.id;
  const query = useApiQuery((signal) => listAdmin('users', signal), []);
  const waiting = waitingForAdmins(query.data ?? [], me);
  const decidable = waiting.confirm.length + waiting.requests.length;
  return (
    <>
      <BrandHero />
      <section className="frp-card frp-work" aria-labelledby="frp-admin-waiting" aria-busy={query.loading}>
        <Heading level={2} id="frp-admin-waiting" className="frp-work__title">
          Waiting for administrators
          {!query.loading && decidable > 0 ? <span className="frp-work__total">{decidable}</span> : null}
        </Heading>
        {query.loading ? (
          <p role="status" className="frp-work__note">
            Looking for what waits…
          </p>
        ) : query.failed ? (
          <p className="frp-work__note">What waits could not be loaded. Reload the page to try again.</p>
        ) : (
          <>
            <p
              className="frp-work__note"
              data-testid="admin-waiting-summary"
              style={{ marginBottom: '1rem' }}
            >
              {decidable === 0
                ? 'Nothing waits for your decision right now.'
                : `${decidable} ${decidable === 1 ? 'decision waits' : 'decisions wait'} for you: ${waiting.requests.length} role ${waiting.requests.length === 1 ? 'request' : 'requests'} and ${waiting.confirm.length} grant ${waiting.confirm.length === 1 ? 'proposal' : 'proposals'} to confirm.`}
            </p>
            {KINDS.map(({ kind, title, action, none }) => (
              <section
                key={kind}
                className="frp-work__group"
                aria-labelledby={`frp-admin-${kind}`}
                data-count={kind}
              >
                <Heading level={3} id={`frp-admin-${kind}`} className="frp-work__group-title">
                  {title} <span className="frp-work__count">{waiting[kind].length}</span>
                </Heading>
                {waiting[kind].length === 0 ? (
                  <p className="frp-work__note">{none}</p>
                ) : (
                  <ul className="frp-work__list">
                    {waiting[kind].slice(0, SHOWN).map((u) => (
                      <li key={u.id} className="frp-work__row">
                        <Link
                          to={paths.admin.users}
                          className="frp-work__link"
                          aria-label={`${action}: ${u.name} (${u.email}), ${detailOf(kind, u)}`}
                        >
                          <span className="frp-work__name">{u.name}</span>
                          <span className="frp-work__meta">{`${u.email} · ${detailOf(kind, u)}`}</span>
                          <span className="frp-work__action" aria-hidden="true">
                            {action} →
                          </span>
                        </Link>
                      </li>
                    ))}
                    {waiting[kind].length > SHOWN ? (
                      <li className="frp-work__row frp-work__note">
                        {`and ${waiting[kind].length - SHOWN} more in the users list`}
                      </li>
                    ) : null}
                  </ul>
                )}
              </section>
            ))}
            <p className="frp-work__links">
              <Link to={paths.admin.users}>Open the users list to decide</Link>
              <span className="frp-work__note">Waiting accounts are listed first there.</span>
            </p>
          </>
        )}
      </section>
    </>
  );
}
