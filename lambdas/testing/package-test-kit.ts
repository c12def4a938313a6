import type { NotifyRequest, PackageType } from '../../shared/api/contracts/packages';
import type { Stage } from '../../shared/api/contracts/resources';
import { approvalOrder, approverRoles } from '../../shared/domain/approval-policy';
import { ForbiddenError } from '../../shared/domain/errors';
import type { Role } from '../../shared/domain/roles';
import { SIGNATURE_PASSWORD_WRONG } from '../../shared/domain/signature-meanings';
import type { RoundName } from '../../shared/domain/voting-rounds';
import { MemoryArtefactJobs } from '../adapters/memory/artefact-jobs';
import { MemoryAuditLog } from '../adapters/memory/audit-log';
import { ManualClock } from '../adapters/memory/clock';
import { MemoryDccRepository } from '../adapters/memory/dcc-repository';
import { MemoryArtefacts } from '../adapters/memory/package-artefacts';
import { MemoryPackageRepository } from '../adapters/memory/package-repository';
import type { ResourceRecord } from '../ports/resource-repository';
import type { UserRecord } from '../ports/user-repository';
import { PackageService } from '../services/package-service';

/** The signature every unit test's decision carries: the password the kit's check accepts. */
export const SIG = { proof: { password: 'the right password' }, sourceIp: '192.0.2.1' } as const;

/**
 * A package world for unit tests of the package rules: the real services over the memory adapters, a
 * manual clock, and users and resources kept in plain maps (only the reads the package services use).
 */
export function packageWorld() {
  const clock = new ManualClock();
  const users = new Map<string, UserRecord>();
  const resources = new Map<string, ResourceRecord>();
  const audit = new MemoryAuditLog(clock);
  const packages = new MemoryPackageRepository((id) => resources.has(id), { audit });
  const dccs = new MemoryDccRepository(audit);
  const artefacts = new MemoryArtefacts();
  const jobs = new MemoryArtefactJobs();
  /** every password a decision was checked with, in order */
  const signatureChecks: string[] = [];
  const service = new PackageService({
    packages,
    resources: { getById: async (id) => resources.get(id) ?? null },
    dccs,
    users: {
      getById: async (id) => users.get(id) ?? null,
      listByRole: async (role) => [...users.values()].filter((u) => u.userRole === role),
    },
    audit,
    artefacts: () => artefacts,
    jobs: () => jobs,
    header: {
      initial: (pkg, resource) => ({ type: pkg.type, size: resource.sizeBytes, edits: 0 }),
      update: (current, submitted) => ({ ...(current as object), ...(submitted as object) }),
    },
    clock,
    appUrl: 'https://portal.example',
    // the rule here: every decision runs only after this check; the real check (user service) is tested
    // over HTTP in test/integration/signature.test.ts
    signatures: {
      confirm: async (_user, proof) => {
        signatureChecks.push(proof.password ?? '');
        if (proof.password !== SIG.proof.password) throw new ForbiddenError(SIGNATURE_PASSWORD_WRONG);
        return 'password' as const;
      },
    },
  });

  let seq = 0;
  /** A user in a role, granted and confirmed unless told otherwise. */
  function user(role: Role, name = `${role} ${++seq}`, more: Partial<UserRecord> = {}): UserRecord {
    const id = `u${++seq}`;
    const u: UserRecord = {
      id,
      name,
      email: `${id}@example.com`,
      userRole: role,
      passwordHash: 'x',
      tokenVersion: 0,
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      version: 1,
      ...more,
    };
    users.set(id, u);
    return u;
  }

  /**
   * A stored patch; `uploadedBy` names who uploaded it (by default nobody of the team: a package's
   * uploader approves, signs and approves delivery of none of its rounds; decision 331).
   */
  function resource(
    stage: Stage,
    name = `resource ${++seq}`,
    uploadedBy: { id: string; name: string } = { id: 'uploader', name: 'Uploader' },
  ): ResourceRecord {
    const r: ResourceRecord = {
      id: `r${++seq}`,
      name,
      resourceType: 'PATCH',
      resourceStage: stage,
      fileName: 'patch.bin',
      sizeBytes: 1234,
      sha256: 'a'.repeat(64),
      uploadTime: clock.now().toISOString(),
      uploadedBy,
      objectKey: `resources/${seq}`,
      createdAt: clock.now().toISOString(),
    };
    resources.set(r.id, r);
    return r;
  }

  /** One granted user in each non-admin role, plus the initiator (a design engineer). */
  function team() {
    return {
      initiator: user('DESIGN_ENGINEER_DEV', 'Ida Initiator'),
      test: user('DESIGN_ENGINEER_TEST', 'Tess Tester'),
      lead: user('TECHNICAL_LEADER', 'Leo Lead'),
      reliability: user('RELIABILITY_ENGINEER', 'Rita Reliability'),
      release: user('SW_FW_RELEASE_ENGINEER', 'Remy Release'),
    };
  }

  /**
   * The team's members the approval policy asks to approve a package of `type` in `round` (one per
   * approving role; `but`: who may not approve, e.g. the round's starter). Tests choose approvers with
   * this, so a change of who approves is made in the policy only (decision 272).
   */
  function approversFor(
    t: Team,
    type: PackageType,
    round: RoundName = 'approval',
    but: readonly UserRecord[] = [],
  ): UserRecord[] {
    const roles: readonly Role[] = approverRoles(round, type);
    return [t.test, t.lead, t.reliability, t.release].filter(
      (u) => roles.includes(u.userRole) && !but.includes(u),
    );
  }

  /** `chosen` in an order the policy lets them approve in `round` (decision 225: `approvesAfter`). */
  const inOrder = (chosen: readonly UserRecord[], round: RoundName = 'approval') =>
    approvalOrder(chosen, (u) => u.userRole, round);

  /** Each of `chosen` approves the package in `round`, in the policy's order. */
  async function approveAll(id: string, chosen: readonly UserRecord[], round: RoundName = 'approval') {
    for (const u of inOrder(chosen, round))
      await (round === 'approval' ? service.approve(u, id, SIG) : service.approveDelivery(u, id, SIG));
  }

  /**
   * A draft with a DCC attached, by the initiator, of a resource `uploader` uploaded (by default nobody of
   * the team, so `approversFor` chooses valid approvers; give a team member and leave them out there).
   */
  async function draft(
    initiator: UserRecord,
    type: PackageType,
    name = `package ${++seq}`,
    uploader?: UserRecord,
  ) {
    const stage: Stage = type.startsWith('DEV_') ? 'DEV' : 'RELEASE';
    const r = resource(stage, undefined, uploader ? { id: uploader.id, name: uploader.name } : undefined);
    const p = await service.generate(initiator, r.id, { packageName: name, packageType: type, note: 'why' });
    const dcc = await service.createDcc(initiator, {
      deviceId: 'device-1',
      telemetryType: 'BLE',
      messageLimit: 16,
      deviceLimit: 32,
    });
    await service.attachDcc(initiator, p.id, dcc.id);
    return { ...p, dccId: dcc.id };
  }

  /** The choice of one approver per role among the given users. */
  const choice = (approvers: UserRecord[], signer?: UserRecord): NotifyRequest => ({
    approvers: approvers.map((u) => ({ role: u.userRole, id: u.id })),
    ...(signer ? { signer: signer.id } : {}),
  });

  /** The audit actions of a package, in order. */
  const actions = async (id: string) => (await audit.history(`PKG#${id}`)).events.map((e) => e.action);

  /**
   * Runs the generation jobs started so far as the worker would (decision 160); a job that throws is
   * failed as after its last retry, with `reason`.
   */
  const runJobs = async (reason = 'failed in the test') => {
    for (const job of jobs.take()) {
      try {
        await service.runGeneration(job);
      } catch {
        await service.failGeneration(job, reason);
      }
    }
  };

  return {
    clock,
    jobs,
    runJobs,
    users,
    resources,
    packages,
    dccs,
    audit,
    artefacts,
    service,
    signatureChecks,
    outbox: packages.outbox,
    user,
    resource,
    team,
    approversFor,
    inOrder,
    approveAll,
    draft,
    choice,
    actions,
  };
}

export type PackageWorld = ReturnType<typeof packageWorld>;
type Team = ReturnType<PackageWorld['team']>;
