import { type ApproverEntry, dccValuesOf, type Package } from '@shared/api/contracts/packages';
import type { Role } from '@shared/domain/roles';
import { DCCS, type PackageHead, ref, type SampleUserId, samplePackage, userById } from './fixtures';

/**
 * Packages of the issue-6 screens: one in every state the lists, detail pages and decisions show, each a
 * row of `samplePackage` with its decisions. A vote is a sample user's id, `+` before it when approved,
 * `-` when rejected (with the package's rejection note).
 */

type Vote = SampleUserId | `${'+' | '-'}${SampleUserId}`;
const AT = '2024-05-02T10:15:00.000Z';

/** The approver entries of `votes`, each user in their own role. */
const entries = (votes: readonly Vote[], rejectionNote?: string): ApproverEntry[] =>
  votes.map((v) => {
    const mark = v[0] === '+' ? 'approved' : v[0] === '-' ? 'rejected' : 'waiting';
    const user = ref((mark === 'waiting' ? v : v.slice(1)) as SampleUserId);
    return {
      user,
      role: user.userRole as Role,
      approved: mark === 'approved',
      rejected: mark === 'rejected',
      ...(mark === 'rejected' ? { rejectionNote } : {}),
      ...(mark !== 'waiting' ? { decidedAt: AT } : {}),
    };
  });

interface Decisions extends Partial<Package> {
  by: SampleUserId;
  votes?: Vote[];
  deliveryVotes?: Vote[];
  /** the generated artefact's key, as linkToS3 (and mLifePath once delivered) */
  artefact?: 'generated' | 'delivered';
}

function make(head: PackageHead, { by, votes = [], deliveryVotes = [], artefact, ...o }: Decisions): Package {
  const key = `packages/${head[0]}/2024-05-02T10-15-00-000Z.xml`;
  return samplePackage(head, {
    initiator: ref(by),
    ...(head[3] === 'DRAFT' ? {} : { dccId: 'd-1', dcc: dccValuesOf(DCCS[0]!) }),
    createdAt: '2024-05-01T08:00:00.000Z',
    updatedAt: AT,
    approvers: entries(votes, o.rejectionNote),
    deliveryApprovers: entries(deliveryVotes, o.rejectionNote),
    ...(artefact ? { linkToS3: key } : {}),
    ...(artefact === 'delivered' ? { mLifePath: key } : {}),
    ...o,
  });
}

/** Every approver of a signed release package approved; the release engineer signs. */
const ALL_APPROVED: Pick<Decisions, 'votes' | 'signer'> = {
  votes: ['+u-dev', '+u-lead', '+u-rel', '+u-sw'],
  signer: ref('u-sw'),
};
// biome-ignore format: a table, one package a row (id, name, type, state, resource, note), then its decisions
export const PACKAGE_FIXTURES: readonly Package[] = [
  make(['pk-approve-dev', 'IP-3.2.1 bench build', 'DEV_UNSIGNED', 'PENDING_APPROVAL', 'r-p1', 'Bench build for the pressure sensor fix'],
    { by: 'u-dev', votes: ['+u-test', 'u-lead', 'u-rel', 'u-sw'],
      // one approval request the mail service never took (decision 095), shown to the initiator and admins
      mailFailures: [{ to: userById('u-rel').email, subject: 'Approval requested: package IP-3.2.1 bench build',
        reason: 'MessageRejected: Email address is not verified.', at: '2024-05-01T08:05:00.000Z' }] }),
  make(['pk-approve-rel', 'VC-1.7.2 RC2', 'RELEASE_SIGNED', 'PENDING_APPROVAL', 'r-p9', 'Release candidate 2 for CE batch'],
    { by: 'u-test', votes: ['+u-dev', 'u-lead', '+u-rel', 'u-sw'], signer: ref('u-sw') }),
  make(['pk-sign-dev', 'GLU-BLE 2.0 signed trial', 'DEV_SIGNED', 'AWAITING_SIGNATURE', 'r-p4', 'Signed build for the BLE trial'],
    { by: 'u-test', ...ALL_APPROVED }),
  make(['pk-sign-rel', 'VC-1.7.2 final', 'RELEASE_SIGNED', 'AWAITING_SIGNATURE', 'r-p9', 'Final release for CE batch'],
    { by: 'u-dev', votes: ['+u-test', '+u-lead', '+u-rel', '+u-sw'], signer: ref('u-sw') }),
  make(['pk-deliv-pending', 'IP-3.1.0 field release', 'RELEASE_UNSIGNED', 'DELIVERY_PENDING', 'r-p8', 'Field release for ward pumps'],
    { by: 'u-dev', votes: ['+u-test', '+u-lead'], deliveryVotes: ['+u-dev', '+u-test', 'u-rel', 'u-lead'],
      deliverer: ref('u-sw'), artefact: 'generated' }),
  make(['pk-deliv-rejected', 'VC-1.7.2 hospital rollout', 'RELEASE_SIGNED', 'DELIVERY_REJECTED', 'r-p9', 'Rollout to hospital group A'],
    { by: 'u-test', ...ALL_APPROVED, deliveryVotes: ['+u-dev', '-u-rel', 'u-lead'], deliverer: ref('u-sw'), artefact: 'delivered',
      rejectionNote: 'Serial number range does not match the rollout list' }),
  // spec §6: a SW/FW Release Engineer approves deliveries too (with the rows above, the five non-admin roles
  // appear as delivery approvers in the sample data)
  make(['pk-delivered', 'ArrhythmiaNet 2.2 rollout', 'RELEASE_UNSIGNED', 'DELIVERED', 'r-m3', 'Model refresh for all monitors'],
    { by: 'u-dev', votes: ['+u-test', '+u-lead'], deliveryVotes: ['+u-test', '+u-rel', '+u-sw'], artefact: 'delivered' }),
  make(['pk-rejected-dev', 'ECG-0.9.7 nightly', 'DEV_UNSIGNED', 'REJECTED', 'r-p5', 'Nightly for the holter team'],
    { by: 'u-dev', votes: ['+u-test', '-u-lead'], rejectionNote: 'Header destination points at the bootloader' }),
  make(['pk-large', 'Defib self-test 5.1.0 full image', 'RELEASE_UNSIGNED', 'APPROVED', 'r-p8', 'Full image, downloads through storage'],
    { by: 'u-test', votes: ['+u-dev', '+u-lead'], artefact: 'generated' }),
];

/** Packages whose file is "large": the download answers a presigned URL. */
export const LARGE_PACKAGE_IDS: readonly string[] = ['pk-large'];
