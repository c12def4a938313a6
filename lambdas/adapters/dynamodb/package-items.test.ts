import { describe, expect, it } from 'vitest';
import type { PackageRecord } from '../../ports/package-repository';
import { fromItem, toItem } from './package-items';

/** The sparse byApprovedDevice keys (decision 246): written for approved packages with a DCC copy only. */
const base = {
  id: 'p1',
  name: 'Pump',
  type: 'DEV_UNSIGNED',
  resourceId: 'r1',
  resourceName: 'R',
  resourceType: 'PATCH',
  resourceStage: 'DEV',
  initiator: { id: 'i', name: 'I', email: 'i@x', userRole: 'DESIGN_ENGINEER_DEV' },
  uploadTime: 't',
  note: 'n',
  signed: false,
  header: { fields: [] },
  approvers: {
    a: {
      user: { id: 'a', name: 'A', email: 'a@x', userRole: 'TECHNICAL_LEADER' },
      role: 'TECHNICAL_LEADER',
      approved: true,
      rejected: false,
      decidedAt: '2026-01-02T03:04:05.000Z',
    },
  },
  approverCount: 1,
  approvedCount: 1,
  deliveryApprovers: {},
  deliveryApproverCount: 0,
  deliveryApprovedCount: 0,
  dccId: 'd1',
  dcc: { deviceId: 'IP#4000', telemetryType: 'TelA', messageLimit: 64, deviceLimit: 128 },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  version: 3,
} as const;
const rec = (more: Partial<PackageRecord>): PackageRecord =>
  structuredClone({ ...base, ...more }) as unknown as PackageRecord;

describe('package items: the byApprovedDevice keys', () => {
  it('are written for an approved package with a DCC copy, and dropped when read back', () => {
    const item = toItem(rec({ status: 'SIGNED' }));
    expect(item).toMatchObject({ approvedFor: 'PATCH#IP#4000', approvedAt: '2026-01-02T03:04:05.000Z' });
    expect(fromItem(item)).not.toHaveProperty('approvedFor');
    expect(fromItem(item)).not.toHaveProperty('approvedAt');
  });

  it('are not written for a rejected or waiting package, nor without a DCC copy', () => {
    for (const status of ['REJECTED', 'PENDING_APPROVAL', 'AWAITING_SIGNATURE', 'GENERATING'] as const)
      expect(toItem(rec({ status })), status).not.toHaveProperty('approvedFor');
    expect(toItem(rec({ status: 'APPROVED', dcc: undefined }))).not.toHaveProperty('approvedFor');
  });
});
