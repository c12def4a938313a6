import { type ApproverEntry, dccValuesOf, type Package } from '@shared/api/contracts/packages';
import type { Role } from '@shared/domain/roles';
import { DCCS, pkg, RESOURCES, ref, userById } from './fixtures';

/**
 * Packages of the issue-6 screens for mock mode and the component tests: one in every state the lists,
 * detail pages and decisions show. The package handlers add them to the mock db on first use.
 */

type Mark = 'approved' | 'rejected' | 'waiting';

/** An approver entry of user `id` (in their own role). */
export function entry(id: string, mark: Mark = 'waiting', rejectionNote?: string): ApproverEntry {
  const user = ref(id);
  return {
    user,
    role: user.userRole as Role,
    approved: mark === 'approved',
    rejected: mark === 'rejected',
    ...(mark === 'rejected' ? { rejectionNote } : {}),
    ...(mark !== 'waiting' ? { decidedAt: '2024-05-02T10:15:00.000Z' } : {}),
  };
}

function make(
  id: string,
  name: string,
  type: Package['type'],
  status: Package['status'],
  resourceId: string,
  initiator: string,
  note: string,
  extra: Partial<Package> = {},
): Package {
  const res = RESOURCES.find((r) => r.id === resourceId);
  if (!res) throw new Error(`no fixture resource ${resourceId}`);
  return pkg(id, name, type, status, res, note, {
    initiator: ref(initiator),
    ...(status === 'DRAFT' ? {} : { dccId: 'd-1', dcc: dccValuesOf(DCCS[0]!) }),
    createdAt: '2024-05-01T08:00:00.000Z',
    updatedAt: '2024-05-02T10:15:00.000Z',
    ...extra,
  });
}

/** Every approver of a signed release package approved; the release engineer signs. */
const FOUR_APPROVED = () => ({
  approvers: [
    entry('u-dev', 'approved'),
    entry('u-lead', 'approved'),
    entry('u-rel', 'approved'),
    entry('u-sw', 'approved'),
  ],
  signer: ref('u-sw'),
});

const ARTEFACT = (id: string) => `packages/${id}/2024-05-02T10-15-00-000Z.xml`;

export const PACKAGE_FIXTURES: readonly Package[] = [
  make(
    'pk-approve-dev',
    'IP-3.2.1 bench build',
    'DEV_UNSIGNED',
    'PENDING_APPROVAL',
    'r-p1',
    'u-dev',
    'Bench build for the pressure sensor fix',
    {
      approvers: [entry('u-test', 'approved'), entry('u-lead'), entry('u-rel'), entry('u-sw')],
      // one approval request the mail service never took (decision 095), shown to the initiator and admins
      mailFailures: [
        {
          to: userById('u-rel').email,
          subject: 'Approval requested: package IP-3.2.1 bench build',
          reason: 'MessageRejected: Email address is not verified.',
          at: '2024-05-01T08:05:00.000Z',
        },
      ],
    },
  ),
  make(
    'pk-approve-rel',
    'VC-1.7.2 RC2',
    'RELEASE_SIGNED',
    'PENDING_APPROVAL',
    'r-p9',
    'u-test',
    'Release candidate 2 for CE batch',
    {
      approvers: [entry('u-dev', 'approved'), entry('u-lead'), entry('u-rel', 'approved'), entry('u-sw')],
      signer: ref('u-sw'),
    },
  ),
  make(
    'pk-sign-dev',
    'GLU-BLE 2.0 signed trial',
    'DEV_SIGNED',
    'AWAITING_SIGNATURE',
    'r-p4',
    'u-test',
    'Signed build for the BLE trial',
    {
      ...FOUR_APPROVED(),
    },
  ),
  make(
    'pk-sign-rel',
    'VC-1.7.2 final',
    'RELEASE_SIGNED',
    'AWAITING_SIGNATURE',
    'r-p9',
    'u-dev',
    'Final release for CE batch',
    {
      approvers: [
        entry('u-test', 'approved'),
        entry('u-lead', 'approved'),
        entry('u-rel', 'approved'),
        entry('u-sw', 'approved'),
      ],
      signer: ref('u-sw'),
    },
  ),
  make(
    'pk-deliv-pending',
    'IP-3.1.0 field release',
    'RELEASE_UNSIGNED',
    'DELIVERY_PENDING',
    'r-p8',
    'u-dev',
    'Field release for ward pumps',
    {
      approvers: [entry('u-test', 'approved'), entry('u-lead', 'approved')],
      deliveryApprovers: [
        entry('u-dev', 'approved'),
        entry('u-test', 'approved'),
        entry('u-rel'),
        entry('u-lead'),
      ],
      deliverer: ref('u-sw'),
      linkToS3: ARTEFACT('pk-deliv-pending'),
    },
  ),
  make(
    'pk-deliv-rejected',
    'VC-1.7.2 hospital rollout',
    'RELEASE_SIGNED',
    'DELIVERY_REJECTED',
    'r-p9',
    'u-test',
    'Rollout to hospital group A',
    {
      ...FOUR_APPROVED(),
      deliveryApprovers: [
        entry('u-dev', 'approved'),
        entry('u-rel', 'rejected', 'Serial number range does not match the rollout list'),
        entry('u-lead'),
      ],
      rejectionNote: 'Serial number range does not match the rollout list',
      deliverer: ref('u-sw'),
      linkToS3: ARTEFACT('pk-deliv-rejected'),
      mLifePath: ARTEFACT('pk-deliv-rejected'),
    },
  ),
  make(
    'pk-delivered',
    'ArrhythmiaNet 2.2 rollout',
    'RELEASE_UNSIGNED',
    'DELIVERED',
    'r-m3',
    'u-dev',
    'Model refresh for all monitors',
    {
      approvers: [entry('u-test', 'approved'), entry('u-lead', 'approved')],
      // spec §6: a SW/FW Release Engineer approves deliveries too (with u-dev, u-test, u-rel and u-lead
      // elsewhere, the five non-admin roles appear as delivery approvers in the sample data)
      deliveryApprovers: [entry('u-test', 'approved'), entry('u-rel', 'approved'), entry('u-sw', 'approved')],
      linkToS3: ARTEFACT('pk-delivered'),
      mLifePath: ARTEFACT('pk-delivered'),
    },
  ),
  make(
    'pk-rejected-dev',
    'ECG-0.9.7 nightly',
    'DEV_UNSIGNED',
    'REJECTED',
    'r-p5',
    'u-dev',
    'Nightly for the holter team',
    {
      approvers: [
        entry('u-test', 'approved'),
        entry('u-lead', 'rejected', 'Header destination points at the bootloader'),
      ],
      rejectionNote: 'Header destination points at the bootloader',
    },
  ),
  make(
    'pk-large',
    'Defib self-test 5.1.0 full image',
    'RELEASE_UNSIGNED',
    'APPROVED',
    'r-p8',
    'u-test',
    'Full image, downloads through storage',
    {
      approvers: [entry('u-dev', 'approved'), entry('u-lead', 'approved')],
      linkToS3: ARTEFACT('pk-large'),
    },
  ),
];

/** Packages whose file is "large": the download answers a presigned URL. */
export const LARGE_PACKAGE_IDS: readonly string[] = ['pk-large'];
