import type { PackageStatus } from './model/package';

/**
 * A package's server state in words: the badges' text, and what the admin package table's State column
 * sorts by, in the SPA and in the server's paged view alike (decision 260).
 */
export const PACKAGE_STATUS_TEXT: Record<PackageStatus, string> = {
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
