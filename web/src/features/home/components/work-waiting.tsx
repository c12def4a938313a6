import { Heading } from '@aws-amplify/ui-react';
import type { Package } from '@shared/api/contracts/packages';
import { packageLinkPath } from '@shared/domain/package-link';
import { UPLOADER_ROLES } from '@shared/domain/roles';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useApiQuery } from '@/hooks/use-api-query';
import type { SessionUser } from '@/lib/session/session-store';
import { waitingForLabel, waitsFirstFor } from '@/lib/turns';
import { resourceTypeLabel, stageLabel } from '@/utils/format';
import { getWorkWaiting, WORK_KINDS, type WorkKind } from '../api/work-waiting';
import '@/components/ui/work-waiting.css';

const GROUP_TITLE: Record<WorkKind, string> = {
  stalled: 'Waiting on someone who left',
  rejected: 'Rejected: revise or leave',
  approval: 'Approvals',
  delivery: 'Delivery approvals',
  signature: 'Signatures',
  draft: 'Your drafts',
};

/** What the user does with a row of the kind (the row's action, for screen readers and the eye). */
const ACTION: Record<WorkKind, string> = {
  stalled: 'Reassign or withdraw',
  rejected: 'Read the reason and revise',
  approval: 'Approve or reject',
  delivery: 'Approve or reject the delivery',
  signature: 'Sign or reject',
  draft: 'Continue the draft',
};

/**
 * Who the row comes from: a delivery from the release engineer who sent it, not the initiator;
 * an approval or a signature from the initiator; a draft is the user's own.
 */
function fromWhom(kind: WorkKind, pkg: Package): string {
  if (kind === 'draft' || kind === 'stalled' || kind === 'rejected') return '';
  if (kind === 'delivery' && pkg.deliverer)
    return ` · sent for delivery by ${pkg.deliverer.name} · initiated by ${pkg.initiator.name}`;
  return ` · from ${pkg.initiator.name}`;
}

/** The approval policy's order: whom the row waits for before the user (nothing when it is their turn). */
function TurnNote({ pkg, userId, kind }: { pkg: Package; userId: string; kind: 'approval' | 'delivery' }) {
  const awaited = waitsFirstFor(pkg, userId, kind === 'approval' ? 'approve' : 'approve-delivery');
  return awaited.length > 0 ? (
    <strong className="frp-work__turn" data-testid="turn-note">
      {` · ${waitingForLabel(awaited)}`}
    </strong>
  ) : null;
}

const newestFirst = (rows: Package[]) => [...rows].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

/**
 * below the slogan and logo, what waits for this user — approvals, delivery approvals,
 * signatures and their own drafts. Each row is the package's deep link (/packages/open/{id}), which opens
 * it on the page a click in its list opens (the server says what it waits for), also in a new tab. The server decides what a user
 * sees: the approval and signing lists hold only what waits for them.
 */
export function WorkWaiting({ user, decides }: { user: SessionUser; decides: boolean }) {
  const query = useApiQuery((signal) => getWorkWaiting(user.id, decides, signal), [user.id, decides]);
  const work = query.data;
  const total = work ? WORK_KINDS.reduce((n, k) => n + work[k].length, 0) : 0;

  return (
    <section className="frp-card frp-work" aria-labelledby="frp-work-title" aria-busy={query.loading}>
      <Heading level={2} id="frp-work-title" className="frp-work__title">
        Waiting for you
        {work && total > 0 ? <span className="frp-work__total">{total}</span> : null}
      </Heading>
      {query.loading ? (
        <p role="status" className="frp-work__note">
          Looking for what waits for you…
        </p>
      ) : query.failed || !work ? (
        <p className="frp-work__note">
          What waits for you could not be loaded. Reload the page to try again.
        </p>
      ) : total === 0 ? (
        <div className="frp-work__empty">
          <p className="frp-work__note">
            Nothing waits for you right now. Packages to approve, deliveries to approve, packages to sign and
            your drafts show here as soon as there are any.
          </p>
          <p className="frp-work__links">
            <Link to={paths.packages.list}>See all packages</Link>
            {UPLOADER_ROLES.includes(user.userRole) && decides ? (
              <Link to={paths.upload}>Upload a patch or model</Link>
            ) : null}
          </p>
        </div>
      ) : (
        WORK_KINDS.filter((k) => work[k].length > 0).map((kind) => (
          <section key={kind} className="frp-work__group" aria-labelledby={`frp-work-${kind}`}>
            <Heading level={3} id={`frp-work-${kind}`} className="frp-work__group-title">
              {GROUP_TITLE[kind]} <span className="frp-work__count">{work[kind].length}</span>
            </Heading>
            <ul className="frp-work__list">
              {newestFirst(work[kind]).map((pkg) => (
                <li key={pkg.id} className="frp-work__row">
                  <Link
                    to={packageLinkPath(pkg.id)}
                    className="frp-work__link"
                    aria-label={`${ACTION[kind]}: ${pkg.name}`}
                  >
                    <span className="frp-work__name">{pkg.name}</span>
                    <span className="frp-work__meta">
                      {`${stageLabel(pkg.resourceStage)} ${resourceTypeLabel(pkg.resourceType).toLowerCase()}, ${pkg.signed ? 'signed' : 'unsigned'}`}
                      {fromWhom(kind, pkg)}
                      {kind === 'approval' || kind === 'delivery' ? (
                        <TurnNote pkg={pkg} userId={user.id} kind={kind} />
                      ) : null}
                    </span>
                    {/* why it waits, on a line of its own: a sentence squeezed beside the name was hard to read */}
                    {kind === 'stalled'
                      ? (work.departures[pkg.id] ?? []).map((t) => (
                          <strong key={t} className="frp-work__why" data-testid="departure-note">
                            {`This package ${t}.`}
                          </strong>
                        ))
                      : null}
                    {kind === 'rejected' && pkg.rejectionNote ? (
                      <strong className="frp-work__why" data-testid="rejection-note">
                        {`Rejected: ${pkg.rejectionNote}`}
                      </strong>
                    ) : null}
                    <span className="frp-work__note-text" title={pkg.note}>
                      {pkg.note}
                    </span>
                    <span className="frp-work__action" aria-hidden="true">
                      {ACTION[kind]} →
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </section>
  );
}
