import type { PackageStatus } from '@shared/api/contracts/packages';
import './status-badge.css';

/** Server states in words (detail pages and list badges). */
export const STATUS_LABELS: Record<PackageStatus, string> = {
  DRAFT: 'Draft',
  PENDING_APPROVAL: 'Awaiting approval',
  APPROVED: 'Approved',
  AWAITING_SIGNATURE: 'Awaiting signature',
  GENERATING: 'Generating…',
  SIGNED: 'Signed',
  REJECTED: 'Rejected',
  DELIVERY_PENDING: 'Delivery pending',
  DELIVERED: 'Delivered',
  DELIVERY_REJECTED: 'Delivery rejected',
};

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
