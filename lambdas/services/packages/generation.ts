import { randomUUID } from 'node:crypto';
import type { ApproveOutcome, Package } from '../../../shared/api/contracts/packages';
import { ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { isActor } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING } from '../../../shared/domain/package-texts';
import { logger } from '../../observability/logger';
import type { GenerationJob } from '../../ports/artefact-jobs';
import type { AuditEvent } from '../../ports/audit-log';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { MAIL_TEXTS } from './mail-texts';
import type { PackageCore } from './package-core';
import { toPackage, userRef } from './package-deps';

/** The worker writes the progress on the package every this many payload bytes (and at the end). */
export const PROGRESS_STEP_BYTES = 4 * 1024 * 1024;

/** Why a generation could not even be handed to the worker. */
const NOT_STARTED = 'The generation could not be started; try again';

/** A decider as the audit trail and the signature record it (from the reference the package keeps). */
const asUser = (r: PackageRecord['initiator']): UserRecord => r as unknown as UserRecord;

/**
 * Generation of the XML package off the request path (docs/decisions/160-generation-off-the-request-path.md):
 *   - `plan` + `start` (or `begin`, both): the deciding call (last approval of an unsigned package, the
 *     signature of a signed one, or a retry) commits GENERATING with a generation record and the
 *     decision's events in one transaction (decision 283), then starts the job; the caller answers 202.
 *   - `run`: the worker claims the job for its run, builds and stores the XML (progress every few MiB),
 *     and commits APPROVED / SIGNED with the artefact, the mail and the audit event, once. It throws on
 *     failure, so Lambda retries it.
 *   - `fail`: after the last retry (the on-failure queue, or locally the invoker's dead-letter path) the
 *     package returns to the status before the decision with the reason; the decision stays recorded.
 *   - `retry`: the person whose decision started it starts it again (after a failure), or hands the job
 *     to a worker again when a crash came between the commit and the hand-over (`resume`, decision 284).
 */
export class Generation {
  constructor(private readonly core: PackageCore) {}

  /**
   * The package as the deciding call leaves it (GENERATING by `decider`, one version on): what the
   * decision commits. The resource and the DCC are checked first, so a package that cannot be generated
   * gets a 409 now, before anything is written.
   */
  async plan(p: PackageRecord, decider: UserRecord): Promise<PackageRecord> {
    const { core } = this;
    const resource = await core.d.resources.getById(p.resourceId);
    if (!resource)
      throw new ConflictError('The resource of this package was deleted; the package cannot be generated');
    await core.reviewedDcc(p);
    const now = core.now().toISOString();
    const status = core.nextStatus(
      p,
      p.generation?.state === 'FAILED' ? 'retryGeneration' : p.signed ? 'sign' : 'approve',
      'The package changed meanwhile; reload it',
      { lastVote: true, signed: p.signed },
    );
    return {
      ...p,
      status,
      generation: {
        jobId: randomUUID(),
        state: 'RUNNING',
        from: p.status,
        requestedBy: userRef(decider),
        // a retry keeps the decision's time: the XML's approval / signature time is the one signed for
        requestedAt: p.generation?.state === 'FAILED' ? p.generation.requestedAt : now,
        bytesDone: 0,
        bytesTotal: resource.sizeBytes,
      },
      // the claim of an earlier job's run does not hold for this one
      generationRunId: undefined,
      updatedAt: now,
      version: p.version + 1,
    };
  }

  /**
   * Hands the committed generation of `next` to a worker. Not handed over: the package must not wait for a
   * worker that never comes, so it returns to where it was (GENERATION_FAILED) and the error is thrown.
   */
  async start(next: PackageRecord): Promise<void> {
    const job = jobOf(next);
    try {
      await this.core.d.jobs().start({ ...job, runId: randomUUID() });
    } catch (e) {
      await this.fail(job, NOT_STARTED, { cause: e, clean: false });
      throw e;
    }
  }

  /**
   * Commits `p` as GENERATING by `decider` with the decision's `events` (one transaction), then starts the
   * job; null when the package moved meanwhile (nothing written).
   */
  async begin(
    p: PackageRecord,
    decider: UserRecord,
    events: (next: PackageRecord) => AuditEvent[],
  ): Promise<PackageRecord | null> {
    const next = await this.plan(p, decider);
    // open tasks stay until the worker commits: a failed generation is retried from the decider's list
    const saved = await this.core.d.packages.save(
      next,
      { version: p.version, status: p.status },
      { events: events(next) },
    );
    if (!saved) return null;
    await this.start(next);
    return next;
  }

  /**
   * The decider's retry of a deciding call whose generation is committed (decision 284): a crash between
   * the commit and the hand-over leaves a job no worker ever got, which no run has claimed; it is handed
   * over again (should the first hand-over have happened after all, whichever run claims the job first
   * runs it and the other stands down). Answers the package, or null when this is not such a call
   * (another status, another decider, a failed generation, or a run holds the job: it is being generated).
   */
  async resume(p: PackageRecord, user: UserRecord): Promise<PackageRecord | null> {
    const g = p.generation;
    if (p.status !== 'GENERATING' || g?.state !== 'RUNNING' || !isActor(p, user, 'decider')) return null;
    if (p.generationRunId) return null;
    await this.core.d.jobs().start({ ...jobOf(p), runId: randomUUID() });
    logger().info('generation handed over again by its decider', { kind: 'generationResumed', id: p.id });
    return p;
  }

  /** The worker: generates the XML of the job's package and commits it, once; throws to be retried. */
  async run(job: GenerationJob): Promise<void> {
    const { core } = this;
    const p = await core.d.packages.get(job.packageId);
    const g = p?.generation;
    if (!p || p.status !== 'GENERATING' || g?.jobId !== job.jobId || g.state !== 'RUNNING') {
      logger().info('generation job no longer current', { kind: 'staleGeneration', ...job });
      return;
    }
    // one run per job: another invocation of it (handed over again) stands down
    if (job.runId && !(await core.d.packages.claimGeneration(p.id, job.jobId, job.runId))) {
      logger().info('generation job run by another invocation', { kind: 'staleGeneration', ...job });
      return;
    }
    const decider = asUser(g.requestedBy);
    const at = new Date(g.requestedAt);
    let reported = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const onProgress = (bytesDone: number) => {
      if (bytesDone - reported < PROGRESS_STEP_BYTES && bytesDone < g.bytesTotal) return;
      reported = bytesDone;
      // one write at a time, never awaited by the build (a slow table never holds up the stream)
      writing = writing
        .then(() => core.d.packages.generationProgress(p.id, job.jobId, bytesDone, job.runId))
        .catch(() => undefined);
    };
    // the object first, under the key every run of this generation writes (keyFor: its decision's time):
    // a crash before the commit below leaves at most this object, which a retry overwrites
    const artefact = await core.buildArtefact(p, p.signed ? decider : undefined, at, onProgress);
    await writing;
    const now = core.now();
    const status = core.nextStatus(p, 'generated', 'The package changed meanwhile', { signed: p.signed });
    const ready: PackageRecord = {
      ...core.withArtefact(p, status, artefact, now),
      // the signed file is also the one mLife delivers
      ...(p.signed ? { mLifePath: artefact.key } : {}),
      generation: undefined,
      generationRunId: undefined,
    };
    const mail = p.signed
      ? core.mail(
          ready,
          ready.version,
          'SIGNED',
          p.initiator,
          MAIL_TEXTS.signed(p.initiator, p, decider, core.d.appUrl),
        )
      : core.mail(
          ready,
          ready.version,
          'PACKAGE_GENERATED',
          p.initiator,
          MAIL_TEXTS.generated(p.initiator, p, core.d.appUrl),
        );
    const event = core.event(ready, decider, 'PACKAGE_GENERATED', AUDIT_MEANING.generated, {
      artefactKey: artefact.key,
      sha256: artefact.sha256,
      sizeBytes: artefact.sizeBytes,
    });
    const saved = await core.d.packages.save(
      ready,
      { version: p.version, status: p.status },
      { removeAll: true, mails: [mail], events: [event] },
    );
    if (!saved) {
      // deleted or failed meanwhile: this file belongs to nobody, unless it is the one the package names
      const current = await core.d.packages.get(p.id);
      if (current?.artefact?.key !== artefact.key)
        await core.d
          .artefacts()
          .remove(artefact)
          .catch((e: unknown) =>
            logger().error('artefact left behind', {
              kind: 'orphanArtefact',
              key: artefact.key,
              reason: (e as Error).message,
            }),
          );
      logger().info('generation finished for a package that moved on', { kind: 'staleGeneration', ...job });
    }
  }

  /**
   * The failure path after the last try: removes whatever the job may have written, returns the package
   * to the status before the decision with the reason and its GENERATION_FAILED event (one transaction).
   * Idempotent: only the current job of a GENERATING package is failed, and only by the run that claimed
   * it (or when no run did).
   */
  async fail(
    job: GenerationJob,
    reason: string,
    { cause, clean = true }: { cause?: unknown; clean?: boolean } = {},
  ): Promise<void> {
    const { core } = this;
    const p = await core.d.packages.get(job.packageId);
    const g = p?.generation;
    if (!p || p.status !== 'GENERATING' || g?.jobId !== job.jobId) return;
    if (p.generationRunId && p.generationRunId !== job.runId) return;
    // a run that crashed or timed out could not clean up itself: its object key is known (a job never
    // handed over wrote nothing, and its caller has no storage grant)
    if (clean) {
      const artefacts = core.d.artefacts();
      const key = artefacts.keyFor(p, new Date(g.requestedAt));
      // storage still down: the package must not wait for it (no object can have been completed while it
      // is down, and an unfinished multipart upload is aborted by the bucket's lifecycle rule); logged
      await artefacts
        .remove({ key, sizeBytes: 0, sha256: '', signed: p.signed, generatedAt: g.requestedAt })
        .catch((e: unknown) =>
          logger().error('artefact may be left behind', {
            kind: 'orphanArtefact',
            key,
            reason: (e as Error).message,
          }),
        );
    }
    const now = core.now().toISOString();
    const status = core.nextStatus(p, 'generationFailed', 'The package changed meanwhile', {
      signed: p.signed,
    });
    const next: PackageRecord = {
      ...p,
      status,
      generation: { ...g, state: 'FAILED', reason, failedAt: now },
      generationRunId: undefined,
      updatedAt: now,
      version: p.version + 1,
    };
    const event = core.event(
      next,
      asUser(g.requestedBy),
      'GENERATION_FAILED',
      AUDIT_MEANING.generationFailed,
      { reason, returnedTo: status },
    );
    if (!(await core.d.packages.save(next, { version: p.version, status: p.status }, { events: [event] })))
      return;
    logger().error('generation failed', {
      kind: 'generationFailed',
      ...job,
      reason,
      cause: cause instanceof Error ? cause.message : undefined,
    });
  }

  /**
   * Only the decider: after a failed generation, starts it again (202 GENERATING); while a generation is
   * committed that no worker took (a crash before the hand-over), hands it over again (decision 284).
   */
  async retry(user: UserRecord, id: string): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const { core } = this;
    const p = await core.mustGet(id);
    if (p.status === 'GENERATING') {
      const resumed = await this.resume(p, user);
      if (resumed) return { outcome: 'GENERATING', pkg: toPackage(resumed) };
      throw new ConflictError('The package is being generated already');
    }
    if (p.generation?.state !== 'FAILED')
      throw new ConflictError('The package has no failed generation to retry');
    if (!isActor(p, user, 'decider'))
      throw new ForbiddenError(
        `Only ${p.generation.requestedBy.name}, whose decision started the generation, may retry it`,
      );
    const next = await this.begin(p, user, (n) => [
      core.event(n, user, 'GENERATION_RETRIED', AUDIT_MEANING.retryGeneration, {
        previousReason: p.generation?.reason,
      }),
    ]);
    if (!next) throw new ConflictError('The package changed meanwhile; reload it');
    return { outcome: 'GENERATING', pkg: toPackage(next) };
  }
}

/**
 * The job of `p`'s running generation, as every hand-over sends it: the stage picks the worker that holds
 * that stage's signing key (decision 295); the other stage's worker refuses it.
 */
function jobOf(p: PackageRecord) {
  return { packageId: p.id, jobId: p.generation!.jobId, stage: p.resourceStage };
}
