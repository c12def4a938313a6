import type { Package } from '@shared/api/contracts/packages';
import { packageTypeLabel } from '@shared/domain/package-type-label';
import { roleLabel } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { StatusBadge } from '@/components/ui/status-badge';

/** Spec §2.9: the SIGN / NO SIGN indicator. */
export function SignBadge({ signed }: { signed: boolean }) {
  return (
    <span className={`frp-badge ${signed ? 'frp-badge--sign' : 'frp-badge--nosign'}`}>
      {signed ? MSG.signIndicator : MSG.noSignIndicator}
    </span>
  );
}

/**
 * Spec §2.9: Initiator, Package name, Resource name, Upload time, SIGN/NO SIGN and the Note; plus the
 * package's type and state, which an approver needs to know what they approve.
 */
export function PackageFields({ pkg }: { pkg: Package }) {
  return (
    <dl className="frp-pkg-fields" aria-label="Package details">
      <dt>{MSG.initiator}</dt>
      <dd>
        {pkg.initiator.name}{' '}
        <span className="frp-muted">
          ({roleLabel(pkg.initiator.userRole)}, {pkg.initiator.email})
        </span>
      </dd>
      <dt>{MSG.colPackageName}</dt>
      <dd>{pkg.name}</dd>
      <dt>{MSG.resourceName}</dt>
      <dd>{pkg.resourceName}</dd>
      <dt>{MSG.uploadTime}</dt>
      <dd>{pkg.uploadTime} UTC</dd>
      <dt>Signing</dt>
      <dd>
        <SignBadge signed={pkg.signed} />
      </dd>
      <dt>Type and state</dt>
      <dd>
        {packageTypeLabel(pkg.type)} <span className="frp-mono frp-muted">({pkg.type})</span>{' '}
        <StatusBadge status={pkg.status} />
      </dd>
      <dt>{MSG.colNote}</dt>
      <dd>
        <p className="frp-pkg-note">{pkg.note}</p>
      </dd>
    </dl>
  );
}

/** A one-line reminder of which package an editing step works on. */
export function PackageStrip({ pkg }: { pkg: Package }) {
  return (
    <dl className="frp-pkg-strip" aria-label="Package">
      <div>
        <dt>{MSG.colPackageName}</dt>
        <dd>{pkg.name}</dd>
      </div>
      <div>
        <dt>{MSG.resourceName}</dt>
        <dd>{pkg.resourceName}</dd>
      </div>
      <div>
        <dt>Type</dt>
        <dd>
          {packageTypeLabel(pkg.type)} <span className="frp-mono frp-muted">({pkg.type})</span>
        </dd>
      </div>
      <div>
        <dt>State</dt>
        <dd>
          <StatusBadge status={pkg.status} />
        </dd>
      </div>
    </dl>
  );
}

/** Spec §4.2: the creation sequence, with the current step marked. */
const STEPS = ['Package', 'Header', 'DCC', 'Approvers'] as const;

export function CreationSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  return (
    <ol className="frp-steps" aria-label="Package creation steps">
      {STEPS.map((label, i) => {
        const n = i + 1;
        return (
          <li
            key={label}
            aria-current={n === current ? 'step' : undefined}
            className={n < current ? 'frp-steps--done' : undefined}
          >
            <span className="frp-steps__n" aria-hidden="true">
              {n < current ? '✓' : n}
            </span>
            <span>
              {label}
              {n < current ? <span className="amplify-visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** An ISO time as 'YYYY-MM-DD HH:MM:SS UTC' (unambiguous for a record). */
export function formatUtc(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
