import type { ApprovalPolicy } from '../../../shared/domain/approval-policy';
import type { PackageRecord } from '../../ports/package-repository';

/** What the package table's operations outside the repository class need of it. */
export interface PackageTableContext {
  readonly table: string;
  readonly resourcesTable: () => string;
  readonly outboxTable: () => string;
  readonly policy: ApprovalPolicy;
  get(id: string): Promise<PackageRecord | null>;
}
