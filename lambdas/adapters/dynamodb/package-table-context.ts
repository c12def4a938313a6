import type { ApprovalPolicy } from '../../../shared/domain/approval-policy';
import type { PackageRecord } from '../../ports/package-repository';
import type { AuditTable } from './audit-commit';

/** What the package table's operations outside the repository class need of it. */
export interface PackageTableContext {
  readonly table: string;
  readonly resourcesTable: () => string;
  readonly outboxTable: () => string;
  /** where the events of its writes are chained (decision 283) */
  readonly audit: AuditTable;
  readonly policy: ApprovalPolicy;
  get(id: string): Promise<PackageRecord | null>;
}
