import { expect } from 'vitest';
import type {
  OutboxMail,
  PackageRecord,
  PackageRepository,
  PlanDecision,
} from '../../lambdas/ports/package-repository';

/** Records and helpers the PackageRepository contract's cases share (package-repository.contract.ts). */
/** One adapter under the contract, and the seeding the port's conditions depend on. */
export interface PackageRepositorySubject {
  repo: PackageRepository;
  /** stores a resource, so packages may reference it */
  addResource(id: string): Promise<void>;
  /** how many packages count themselves on the resource (its `packageRefs`) */
  resourceRefs(id: string): Promise<number>;
}

export const entry = (id: string, role: 'RELIABILITY_ENGINEER' | 'DESIGN_ENGINEER_DEV') => ({
  user: { id, name: id, email: `${id}@example.com`, userRole: role },
  role,
  approved: false,
  rejected: false,
});

export function record(
  more: Partial<PackageRecord> & Pick<PackageRecord, 'id' | 'name' | 'resourceId'>,
): PackageRecord {
  return {
    type: 'DEV_UNSIGNED',
    status: 'PENDING_APPROVAL',
    resourceName: 'R',
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    initiator: { id: 'init', name: 'I', email: 'i@example.com', userRole: 'DESIGN_ENGINEER_DEV' },
    uploadTime: '2026-01-01T00:00:00.000Z',
    note: 'n',
    signed: false,
    header: { device: { id: 'D1' } },
    approvers: {},
    approverCount: 0,
    approvedCount: 0,
    deliveryApprovers: {},
    deliveryApproverCount: 0,
    deliveryApprovedCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    ...more,
  };
}

export const mail = (id: string, packageId: string): OutboxMail => ({
  id,
  packageId,
  event: 'APPROVAL_REQUESTED',
  toUserId: 'a',
  to: 'a@example.com',
  subject: 's',
  text: 't',
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** A decision committed alone: the package as the decision leaves it, nothing beside it. */
export const alone: PlanDecision = async (decided) => ({ next: decided, commit: {} });

/** Every page of a list, in order; fails when a page is longer than asked or the walk does not end. */
export async function walk(
  read: (cursor?: string) => Promise<{ items: PackageRecord[]; next?: string }>,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await read(cursor);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((p) => p.id));
    if (!page.next) return ids;
    cursor = page.next;
  }
  throw new Error('the pages never end');
}
