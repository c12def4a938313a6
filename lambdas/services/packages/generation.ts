import { randomUUID } from 'node:crypto';
import type { ApproveOutcome, Package } from '../../../shared/api/contracts/packages';
import { ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { isActor } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING } from '../../../shared/domain/package-texts';
import { logger } from '../../middleware/logging';
import type { GenerationJob } from '../../ports/artefact-jobs';
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
 *   - `begin`: the deciding call (last approval of an unsigned package, the signature of a signed one, or
 *     a retry) commits GENERATING with a generation record and starts the job; the caller answers 202.
 *   - `run`: the worker builds and stores the XML (progress every few MiB) and commits APPROVED / SIGNED
 *     with the artefact, the mail and the audit event. It throws on failure, so Lambda retries it.
 *   - `fail`: after the last retry (the on-failure queue, or locally the invoker's dead-letter path) the
 *     package returns to the status before the decision with the reason; the decision stays recorded.
 *   - `retry`: the person whose decision started it starts it again.
 */
export class Generation {
  constructor(private readonly core: PackageCore) {}

  /**
   * Commits `p` (status `p.status`, version `p.version`) as GENERATING by `decider` and starts the job.
   * The resource and the DCC are checked first, so a package that cannot be generated gets a 409 now.
   * `audit` records the decision in the same step (after the commit).
   */
  async begin(
    p: PackageRecord,
    decider: UserRecord,
    audit: (next: PackageRecord) => Promise<void>,
  ): Promise<PackageRecord | null> {
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
    const next: PackageRecord = {
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
      updatedAt: now,
      version: p.version + 1,
    };
    // open tasks stay until the worker commits: a failed generation is retried from the decider's list
    if (!(await core.d.packages.save(next, { version: p.version, status: p.status }))) return null;
    await audit(next);
    // the stage picks the worker that holds the stage's signing key (decision 295)
    const job = { packageId: p.id, jobId: next.generation!.jobId, stage: p.resourceStage };
    try {
      await core.d.jobs().start(job);
    } catch (e) {
      // not handed over: the package must not wait for a worker that never comes
      await this.fail(job, NOT_STARTED, { cause: e, clean: false });
      throw e;
    }
    return next;
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
    const decider = asUser(g.requestedBy);
    const at = new Date(g.requestedAt);
    let reported = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const onProgress = (bytesDone: number) => {
      if (bytesDone - reported < PROGRESS_STEP_BYTES && bytesDone < g.bytesTotal) return;
      reported = bytesDone;
      // one write at a time, never awaited by the build (a slow table never holds up the stream)
      writing = writing
        .then(() => core.d.packages.generationProgress(p.id, job.jobId, bytesDone))
        .catch(() => undefined);
    };
    await core.d.packages.generationProgress(p.id, job.jobId, 0);
    const artefact = await core.buildArtefact(p, p.signed ? decider : undefined, at, onProgress);
    await writing;
    const now = core.now();
    const status = core.nextStatus(p, 'generated', 'The package changed meanwhile', { signed: p.signed });
    const ready: PackageRecord = {
      ...core.withArtefact(p, status, artefact, now),
      // the signed file is also the one mLife delivers
      ...(p.signed ? { mLifePath: artefact.key } : {}),
      generation: undefined,
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
    if (
      !(await core.d.packages.save(
        ready,
        { version: p.version, status: p.status },
        { removeAll: true, mails: [mail] },
      ))
    ) {
      // deleted or failed meanwhile: this file belongs to nobody
      await core.d.artefacts().remove(artefact);
      logger().info('generation finished for a package that moved on', { kind: 'staleGeneration', ...job });
      return;
    }
    await core.audit(ready, decider, 'PACKAGE_GENERATED', AUDIT_MEANING.generated, {
      artefactKey: artefact.key,
      sha256: artefact.sha256,
      sizeBytes: artefact.sizeBytes,
    });
  }

  /**
   * The failure path after the last try: removes whatever the job may have written, returns the package
   * to the status before the decision with the reason, and audits it. Idempotent (only the current job
   * of a GENERATING package is failed).
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
      updatedAt: now,
      version: p.version + 1,
    };
    if (!(await core.d.packages.save(next, { version: p.version, status: p.status }))) return;
    logger().error('generation failed', {
      kind: 'generationFailed',
      ...job,
      reason,
      cause: cause instanceof Error ? cause.message : undefined,
    });
    await core.audit(next, asUser(g.requestedBy), 'GENERATION_FAILED', AUDIT_MEANING.generationFailed, {
      reason,
      returnedTo: status,
    });
  }

  /** Only the decider, only after a failed generation: starts it again (202 GENERATING). */
  async retry(user: UserRecord, id: string): Promise<{ outcome: ApproveOutcome; pkg: Package }> {
    const { core } = this;
    const p = await core.mustGet(id);
    if (p.status === 'GENERATING') throw new ConflictError('The package is being generated already');
    if (p.generation?.state !== 'FAILED')
      throw new ConflictError('The package has no failed generation to retry');
    if (!isActor(p, user, 'decider'))
      throw new ForbiddenError(
        `Only ${p.generation.requestedBy.name}, whose decision started the generation, may retry it`,
      );
    const next = await this.begin(p, user, (n) =>
      core.audit(n, user, 'GENERATION_RETRIED', AUDIT_MEANING.retryGeneration, {
        previousReason: p.generation?.reason,
      }),
    );
    if (!next) throw new ConflictError('The package changed meanwhile; reload it');
    return { outcome: 'GENERATING', pkg: toPackage(next) };
  }
}
