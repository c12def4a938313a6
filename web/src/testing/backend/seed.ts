import { randomBytes, scryptSync } from 'node:crypto';
import type { ApproverEntry, Package } from '@shared/api/contracts/packages';
import type { PublicUser } from '@shared/api/contracts/user';
import {
  APPROVAL_ROUND,
  DELIVERY_ROUND,
  isEditable,
  isGenerated,
  isWaitingForApproval,
  isWaitingForDelivery,
  isWaitingForSignature,
} from '@shared/domain/package-lifecycle';
import { AUDIT_MEANING } from '@shared/domain/package-texts';
import type { PackageRecord, Task } from '../../../../lambdas/ports/package-repository';
import type { UserRecord } from '../../../../lambdas/ports/user-repository';
import { headerRules } from '../../../../lambdas/services/packages/header-rules';
import type { MemoryBackend } from '../../../../lambdas/testing/memory-composition';
import { DCCS, MOCK_PASSWORD, PACKAGES, PENDING_USER, RESOURCES, USERS } from '../mocks/fixtures';
import { LARGE_PACKAGE_IDS, PACKAGE_FIXTURES } from '../mocks/package-fixtures';

const LARGE_SIZE_BYTES = 6 * 1024 ** 3;

/**
 * The sample data (web/src/testing/mocks/fixtures.ts, package-fixtures.ts) written into a memory backend's
 * stores, as the real services would have left them: users with the password MOCK_PASSWORD, resources,
 * DCCs, and packages with their approval maps, open tasks and generated XML.
 */

/**
 * A hash of MOCK_PASSWORD in the hasher's own format at a low cost (N=2^10): verifyPassword reads the
 * parameters from the stored hash, so sign-in and signatures check it as any other, only faster.
 */
const N = 2 ** 10;
const salt = randomBytes(16);
const MOCK_HASH = [
  'scrypt',
  N,
  8,
  1,
  salt.toString('base64'),
  scryptSync(MOCK_PASSWORD, salt, 32, { N }).toString('base64'),
].join('$');

const AT = '2024-01-01T00:00:00.000Z';

/**
 * The lists answer newest first; the sample lists are written in the order the screens show them, so the
 * i-th sample item is made one second before the one above it.
 */
const madeAt = (i: number) => new Date(Date.UTC(2024, 5, 1) - i * 1000).toISOString();

function userRecord(u: PublicUser): UserRecord {
  const { roleProposal, ...fields } = u;
  return {
    emailConfirmed: true,
    roleStatus: 'GRANTED',
    ...fields,
    // a proposal as the store keeps it (the API shows it with its expiry)
    ...(roleProposal
      ? {
          roleProposal: {
            role: roleProposal.role,
            proposedById: roleProposal.proposedBy.id,
            proposedByName: roleProposal.proposedBy.name,
            proposedByEmail: roleProposal.proposedBy.email,
            proposedAt: roleProposal.proposedAt,
          },
        }
      : {}),
    passwordHash: MOCK_HASH,
    tokenVersion: 1,
    createdAt: AT,
    updatedAt: AT,
    version: 1,
  } as UserRecord;
}

const byUser = (list: readonly ApproverEntry[]): Record<string, ApproverEntry> =>
  Object.fromEntries(list.map((a) => [a.user.id, { ...a }]));

function packageRecord(p: Package): PackageRecord {
  // the fixed data holds no pending deletion (its view is what the admin list answers, not a record)
  const { approvers, deliveryApprovers, deletionProposal: _view, ...fields } = p;
  return {
    ...fields,
    header: null,
    approvers: byUser(approvers),
    approverCount: approvers.length,
    approvedCount: approvers.filter((a) => a.approved).length,
    deliveryApprovers: byUser(deliveryApprovers),
    deliveryApproverCount: deliveryApprovers.length,
    deliveryApprovedCount: deliveryApprovers.filter((a) => a.approved).length,
    // the delivery list holds the packages whose delivery started
    ...(deliveryApprovers.length ? { deliveryStartedAt: p.updatedAt } : {}),
    version: 1,
  };
}

/** The open tasks of a package in its status: who its lists show it to. */
function tasksOf(p: Package): Task[] {
  const task = (kind: Task['kind'], userId: string): Task => ({
    kind,
    userId,
    packageId: p.id,
    stage: p.resourceStage,
    createdAt: p.updatedAt,
  });
  const undecided = (list: readonly ApproverEntry[]) => list.filter((a) => !a.approved && !a.rejected);
  if (isWaitingForApproval(p.status))
    return undecided(p.approvers).map((a) => task(APPROVAL_ROUND.task, a.user.id));
  if (isWaitingForDelivery(p.status))
    return undecided(p.deliveryApprovers).map((a) => task(DELIVERY_ROUND.task, a.user.id));
  if (isWaitingForSignature(p.status) && p.signer) return [task('SIGN', p.signer.id)];
  return [];
}

/** The sample packages, fixtures.ts's and package-fixtures.ts's. */
export const SAMPLE_PACKAGES: readonly Package[] = [...PACKAGES, ...PACKAGE_FIXTURES];

/** Writes the sample data into `b`; answers a signed-in token per sample user (as the real sign-in issues). */
/** The approval record a sample package would have had, from its status and its approvers' decisions. */
async function addHistory(b: MemoryBackend, p: Package): Promise<void> {
  const add = (
    who: Package['initiator'],
    action: string,
    meaning: string,
    details?: Record<string, unknown>,
  ) =>
    b.audit.record([
      {
        subject: `PKG#${p.id}`,
        action,
        meaning,
        actorId: who.id,
        actorName: who.name,
        actorRole: who.userRole,
        ...(details ? { details } : {}),
      },
    ]);
  await add(p.initiator, 'PACKAGE_CREATED', AUDIT_MEANING.created(p.type, p.resourceName));
  if (isEditable(p.status)) return;
  await add(p.initiator, 'APPROVAL_REQUESTED', AUDIT_MEANING.notify, {
    approvers: p.approvers.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role })),
  });
  for (const [round, approved, rejected] of [
    [APPROVAL_ROUND, AUDIT_MEANING.approve, AUDIT_MEANING.reject],
    [DELIVERY_ROUND, AUDIT_MEANING.approveDelivery, AUDIT_MEANING.rejectDelivery],
  ] as const) {
    const prefix = round === DELIVERY_ROUND ? 'DELIVERY_' : '';
    for (const a of p[round.list]) {
      if (a.approved) await add(a.user, `${prefix}APPROVED`, approved);
      if (a.rejected) await add(a.user, `${prefix}REJECTED`, rejected, { rejectionNote: a.rejectionNote });
    }
  }
}

/** Writes one package into `b` as the services would have left it (its header, artefact and open tasks). */
export async function addPackage(b: MemoryBackend, p: Package): Promise<void> {
  const resource = await b.resources.getById(p.resourceId);
  const record = packageRecord(p);
  record.header = resource ? headerRules.initial(record, resource) : null;
  if (p.linkToS3 || p.mLifePath || isGenerated(p.status)) {
    const artefact = await b.artefacts.generate({ pkg: record, approvals: [], at: new Date(p.updatedAt) });
    // a "large" sample package: its file is past the inline limit, so the download answers a presigned URL
    record.artefact = LARGE_PACKAGE_IDS.includes(p.id)
      ? { ...artefact, sizeBytes: LARGE_SIZE_BYTES }
      : artefact;
    record.linkToS3 = artefact.key;
    if (p.mLifePath) record.mLifePath = artefact.key;
  }
  const created = await b.packages.create(record);
  if (created !== 'ok') throw new Error(`package ${p.id}: ${created}`);
  await addHistory(b, p);
  const tasks = tasksOf(p);
  if (tasks.length) await b.packages.save(record, { version: 1, status: record.status }, { add: tasks });
}

/** Writes one user into `b`, granted and confirmed unless `u` says otherwise, with the password MOCK_PASSWORD. */
export async function addUser(b: MemoryBackend, u: PublicUser): Promise<void> {
  if (!(await b.users.create(userRecord(u)))) throw new Error(`user ${u.id} exists`);
}

/** Writes the sample data into `b`; answers a signed-in token per sample user (as the real sign-in issues). */
export async function seed(b: MemoryBackend): Promise<Map<string, string>> {
  const users = [...USERS, PENDING_USER];
  for (const u of users) await addUser(b, u);
  for (const [i, r] of RESOURCES.entries())
    await b.resources.create({ ...r, objectKey: `resources/${r.id}`, createdAt: madeAt(i) });
  for (const d of DCCS) await b.dccs.create({ ...d });
  for (const [i, p] of SAMPLE_PACKAGES.entries()) await addPackage(b, { ...p, createdAt: madeAt(i) });
  const now = new Date();
  const tokens = new Map<string, string>();
  for (const u of users) tokens.set(u.id, await b.tokens.issue({ sub: u.id, tv: 1 }, now));
  return tokens;
}
