import type { PackageStatus } from '@shared/api/contracts/packages';
import { PACKAGE_STATUS_TEXT } from '@shared/domain/package-status-text';
import './status-badge.css';

/** Server states in words (detail pages and list badges); shared with the server's admin view (decision 260). */
export const STATUS_LABELS: Record<PackageStatus, string> = PACKAGE_STATUS_TEXT;

const STATUS_TONE: Record<PackageStatus, string> = {
  DRAFT: 'neutral',
  PENDING_APPROVAL: 'wait',
  APPROVED: 'ok',
  AWAITING_SIGNATURE: 'wait',
  GENERATING: 'wait',
  SIGNED: 'ok',
  REJECTED: 'bad',
  DELIVERY_PENDING: 'wait',
  DELIVERED: 'ok',
  DELIVERY_REJECTED: 'bad',
};

/** The server's state of a package, in words. */
export function StatusBadge({ status }: { status: PackageStatus }) {
  return <span className={`frp-badge frp-badge--${STATUS_TONE[status]}`}>{STATUS_LABELS[status]}</span>;
}
