import type { ApproverEntry, Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import type { FlowPurpose } from '@/lib/session/session-store';
import {
  canDeliver,
  downloadTitle,
  initialTab,
  listApiPath,
  listTitle,
  mainAction,
  rejectKind,
  rowClickTarget,
  rowHighlight,
  rowLabel,
  tabFlow,
} from './package-flow';

const approver = (approved: boolean, rejected = false) => ({ approved, rejected }) as ApproverEntry;
const pkg = (type: Package['type'], deliveryApprovers: ApproverEntry[] = []) => ({ type, deliveryApprovers });

const rejected = pkg('RELEASE_SIGNED', [approver(true), approver(false, true), approver(false)]);
const pending = pkg('RELEASE_UNSIGNED', [approver(true), approver(false)]);
const delivered = pkg('RELEASE_UNSIGNED', [approver(true), approver(true)]);
const notStarted = pkg('RELEASE_SIGNED');

describe('row click routing (spec §4.4)', () => {
  it.each<[string, FlowPurpose, ReturnType<typeof pkg>, string, string]>([
    [
      'a DEV_SIGNED row of the signing flow',
      'sign',
      pkg('DEV_SIGNED'),
      '/packages/sign/view',
      MSG.devPackageApproved,
    ],
    [
      'a RELEASE_SIGNED row of the signing flow',
      'sign',
      pkg('RELEASE_SIGNED'),
      '/packages/sign/view',
      MSG.releasePackageApproved,
    ],
    [
      'a development row of the approve flow',
      'approve',
      pkg('DEV_UNSIGNED'),
      '/packages/approve/view',
      MSG.approveDevPackageTitle,
    ],
    [
      'a release row of the approve flow',
      'approve',
      pkg('RELEASE_SIGNED'),
      '/packages/approve/view',
      MSG.approveReleasePackageTitle,
    ],
    [
      'a row of the approve-delivery flow',
      'approve-delivery',
      pending,
      '/packages/approve/view',
      MSG.approveDeliveryPackageTitle,
    ],
    ['a development package', 'dev', pkg('DEV_UNSIGNED'), '/packages/dev/view', MSG.packageGenerated],
    [
      'a development package in the release flow',
      'release',
      pkg('DEV_SIGNED'),
      '/packages/dev/view',
      MSG.packageGenerated,
    ],
    [
      'a rejected package (checked before pending)',
      'delivery',
      rejected,
      '/packages/rejected/view',
      'REJECTED',
    ],
    [
      'a development package rejected in approval (a rejection is a rejection)',
      'dev',
      Object.assign(pkg('DEV_UNSIGNED'), { status: 'REJECTED' as const }),
      '/packages/rejected/view',
      'REJECTED',
    ],
    [
      'a release package rejected in approval, before any delivery',
      'release',
      Object.assign(pkg('RELEASE_SIGNED'), { status: 'REJECTED' as const }),
      '/packages/rejected/view',
      'REJECTED',
    ],
    ['a pending package', 'delivery', pending, '/packages/approval-pending/view', 'PACKAGE APPROVAL PENDING'],
    [
      'a release package not in delivery',
      'release',
      notStarted,
      '/packages/release/view',
      'PACKAGE GENERATED',
    ],
    ['a delivered package', 'delivery', delivered, '/packages/release/view', 'PACKAGE GENERATED'],
    [
      'a pending package seen in the release flow',
      'release',
      pending,
      '/packages/approval-pending/view',
      'PACKAGE APPROVAL PENDING',
    ],
  ])('opens %s', (_what, flow, row, path, subHeader) => {
    expect(rowClickTarget(row, flow)).toEqual({ path, subHeader });
  });
});

describe('lists (spec §2.5, §2.6, §4.8)', () => {
  it('sets the flow purpose of each tab', () => {
    expect(['DEV', 'RELEASE', 'DELIVERY'].map((t) => tabFlow('packages', t as 'DEV'))).toEqual([
      'dev',
      'release',
      'delivery',
    ]);
    expect(['DEV', 'RELEASE', 'DELIVERY'].map((t) => tabFlow('approve', t as 'DEV'))).toEqual([
      'approve',
      'approve',
      'approve-delivery',
    ]);
    expect(tabFlow('sign', 'RELEASE')).toBe('sign');
  });

  it('loads each list from its path', () => {
    expect(listApiPath('packages', 'DEV')).toBe('/dev/packages');
    expect(listApiPath('packages', 'RELEASE')).toBe('/release/packages');
    expect(listApiPath('packages', 'DELIVERY')).toBe('/delivery/packages');
    expect(listApiPath('approve', 'DEV')).toBe('/dev/packages/approval');
    expect(listApiPath('approve', 'DELIVERY')).toBe('/deliver/packages/approval');
    expect(listApiPath('sign', 'RELEASE')).toBe('/release/packages/signing');
  });

  it('heads the approval and signing lists with the spec texts', () => {
    expect(listTitle('approve', 'DEV')).toBe('APPROVE DEVELOPMENT PACKAGE');
    expect(listTitle('approve', 'RELEASE')).toBe('APPROVE RELEASE PACKAGE');
    expect(listTitle('approve', 'DELIVERY')).toBe('APPROVE DELIVERY PACKAGE');
    expect(listTitle('sign', 'DEV')).toBe('SIGN DEVELOPMENT PACKAGE');
    expect(listTitle('sign', 'RELEASE')).toBe('SIGN RELEASE PACKAGE');
  });

  it('opens a list on the tab the flow came from', () => {
    expect(initialTab('packages', 'delivery', null)).toBe('DELIVERY');
    expect(initialTab('packages', 'approve', null)).toBe('DEV');
    expect(initialTab('approve', 'approve-delivery', null)).toBe('DELIVERY');
    expect(initialTab('sign', 'sign', pkg('RELEASE_SIGNED'))).toBe('RELEASE');
    expect(initialTab('sign', 'dev', pkg('RELEASE_SIGNED'))).toBe('DEV');
  });
});

describe('status labels (spec §4.3)', () => {
  it("labels rejected rows 'Package rejected' and pending rows 'Approval pending: X/Y'", () => {
    expect(rowLabel(rejected, 'delivery')).toBe('Package rejected');
    expect(rowLabel(pending, 'delivery')).toBe('Approval pending: 1/2');
    expect(rowHighlight(rejected, 'delivery')).toBe('rejected');
    expect(rowHighlight(pending, 'release')).toBe('pending');
  });

  it('labels nothing that is not in delivery, or delivered', () => {
    expect(rowLabel(notStarted, 'release')).toBeNull();
    expect(rowLabel(delivered, 'delivery')).toBeNull();
    expect(rowLabel(pkg('DEV_UNSIGNED', [approver(false, true)]), 'dev')).toBeNull();
  });

  it.each<FlowPurpose>(['approve', 'approve-delivery', 'sign'])(
    'shows no label or highlight in the %s flow',
    (flow) => {
      expect(rowLabel(rejected, flow)).toBeNull();
      expect(rowHighlight(pending, flow)).toBeNull();
    },
  );
});

describe('decisions', () => {
  it('makes the header view button Approve, Sign or Continue by flow (spec §2.9)', () => {
    expect(mainAction('approve', false)).toBe('approve');
    expect(mainAction('approve-delivery', false)).toBe('approve-delivery');
    expect(mainAction('sign', false)).toBe('sign');
    expect(mainAction('delivery', true)).toBe('deliver');
    expect(mainAction('delivery', false)).toBeNull();
    expect(mainAction('dev', true)).toBeNull();
  });

  it('rejects through the call of the flow, and not at all in the delivery flow (spec §4.6)', () => {
    expect(rejectKind('approve')).toBe('approval');
    expect(rejectKind('approve-delivery')).toBe('delivery');
    expect(rejectKind('sign')).toBe('signing');
    expect(rejectKind('delivery')).toBeNull();
    expect(rejectKind('release')).toBeNull();
  });

  it('lets only a release engineer deliver signed or delivery-rejected signed release packages', () => {
    const p = (
      status: Package['status'],
      stage: Package['resourceStage'] = 'RELEASE',
      type: Package['type'] = stage === 'RELEASE' ? 'RELEASE_SIGNED' : 'DEV_SIGNED',
    ) => ({ status, resourceStage: stage, type, signed: type.endsWith('_SIGNED') });
    expect(canDeliver(p('SIGNED'), 'SW_FW_RELEASE_ENGINEER')).toBe(true);
    expect(canDeliver(p('DELIVERY_REJECTED'), 'SW_FW_RELEASE_ENGINEER')).toBe(true);
    expect(canDeliver(p('DELIVERED'), 'SW_FW_RELEASE_ENGINEER')).toBe(false);
    expect(canDeliver(p('SIGNED', 'DEV'), 'SW_FW_RELEASE_ENGINEER')).toBe(false);
    expect(canDeliver(p('SIGNED'), 'TECHNICAL_LEADER')).toBe(false);
  });

  it('never offers delivery of an unsigned release package: devices refuse it (decision 193)', () => {
    const unsigned = (status: Package['status']) => ({
      status,
      resourceStage: 'RELEASE' as const,
      type: 'RELEASE_UNSIGNED' as const,
      signed: false,
    });
    expect(canDeliver(unsigned('APPROVED'), 'SW_FW_RELEASE_ENGINEER')).toBe(false);
    expect(canDeliver(unsigned('DELIVERY_REJECTED'), 'SW_FW_RELEASE_ENGINEER')).toBe(false);
  });
});

describe('download page titles (spec §2.8)', () => {
  it.each<[FlowPurpose, Package['type'], string]>([
    ['approve', 'DEV_UNSIGNED', 'GENERATED NEW DEVELOPMENT PACKAGE'],
    ['approve', 'RELEASE_UNSIGNED', 'GENERATED NEW RELEASE PACKAGE'],
    ['sign', 'DEV_SIGNED', 'GENERATED NEW SIGNED DEVELOPMENT PACKAGE'],
    ['sign', 'RELEASE_SIGNED', 'GENERATED NEW SIGNED RELEASE PACKAGE'],
    ['approve-delivery', 'RELEASE_SIGNED', 'RELEASE PACKAGE DELIVERY'],
    ['approve-delivery', 'RELEASE_UNSIGNED', 'RELEASE PACKAGE DELIVERY'],
  ])('titles the %s flow of a %s package %s', (flow, type, title) => {
    expect(downloadTitle(flow, type)).toBe(title);
  });
});
