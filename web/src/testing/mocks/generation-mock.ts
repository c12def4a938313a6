import type { Package } from '@shared/api/contracts/packages';
import { nextStatus } from '@shared/domain/package-lifecycle';
import { type HttpHandler, http } from 'msw';
import { ensure, find, now, save } from './package-store';

export interface GeneratingOptions {
  /** reads of a package list after the first that move the progress on before the end (default 2) */
  steps?: number;
  /** how the generation ends: the ready package (APPROVED / SIGNED), or back where it was with a reason */
  end?: 'ready' | { failed: string };
  /** the resource's bytes (default 4 MiB) */
  bytesTotal?: number;
}

/**
 * Decision 178: a package in the middle of its generation for the list tests. `base` goes into the mock db
 * as GENERATING at 0 bytes; the returned handler (`server.use(...)`) lets the first read of a package list
 * see it so, and moves it one step on before each later read: bytes done grow in `steps` steps, then the
 * package is ready (or returned to its status before the decision with `generation.state` FAILED and the
 * reason, as generationFailed leaves it). The real list handlers answer every read.
 */
export function generatingOnReads(base: Package, options: GeneratingOptions = {}) {
  const { steps = 2, end = 'ready', bytesTotal = 4 * 1024 * 1024 } = options;
  ensure();
  const by = base.signer ?? base.approvers.at(-1)?.user ?? base.initiator;
  save({
    ...base,
    status: 'GENERATING',
    generation: {
      jobId: `mock-${base.id}`,
      state: 'RUNNING',
      from: base.status,
      requestedBy: by,
      requestedAt: now(),
      bytesDone: 0,
      bytesTotal,
    },
  });
  let reads = 0;
  const moveOn = () => {
    const cur = find(base.id);
    if (!cur?.generation || cur.status !== 'GENERATING') return;
    const step = reads - 1;
    if (step < steps) {
      save({ ...cur, generation: { ...cur.generation, bytesDone: (bytesTotal * step) / steps } });
    } else if (end === 'ready') {
      save({
        ...cur,
        status: nextStatus('GENERATING', 'generated', { signed: cur.signed }) ?? cur.status,
        generation: undefined,
        linkToS3: `packages/${cur.id}/mock.xml`,
      });
    } else {
      save({
        ...cur,
        status: cur.generation.from,
        generation: { ...cur.generation, state: 'FAILED', reason: end.failed, failedAt: now() },
      });
    }
  };
  const handler: HttpHandler = http.get(/\/packages(\?.*)?$/, () => {
    reads += 1;
    if (reads > 1) moveOn();
    return undefined; // the list handlers answer
  });
  return { handler, reads: () => reads };
}
