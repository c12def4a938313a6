import type { Package, PackageType } from '../../shared/api/contracts/packages';
import { generationSettles } from './crash-cases-packages';
import { uploadedNotConfirmed, uploadSettles } from './crash-cases-resources';
import type { CrashHarness, WorkerCase } from './crash-harness';
import { approversFor } from './package-flow';
import { auditCopySettled, s3At } from './store';

/**
 * The crash matrix's workers. The crash point is armed for the worker's next invocation; what invokes
 * it runs uncrashed; the retry is the platform's own: Lambda runs a failed asynchronous event again (and
 * hands it to the failure handler after the last try), a stream's batch is handed in again.
 */

const decide = (token: string) => ({ method: 'POST', token });

async function allButLast(h: CrashHarness, type: PackageType): Promise<Package> {
  const pkg = await h.kit.notified(h.u, type);
  for (const v of approversFor(h.u, pkg.type).slice(0, -1))
    await h.kit.must(202, `/packages/${pkg.id}/approve`, decide(v.token));
  return pkg;
}

const lastVote = async (h: CrashHarness, id: string, type: PackageType) =>
  void (await h.kit.must(202, `/packages/${id}/approve`, decide(approversFor(h.u, type).at(-1)!.token)));

/**
 * The generation worker of each stage (decision 295: one per signing key) and its failure handler: a
 * package of that stage's type, approved by its last vote, is what invokes it.
 */
const GENERATIONS = [
  { worker: 'generateDevArtefact', failure: 'devGenerationFailed', type: 'DEV_UNSIGNED' },
  { worker: 'generateArtefact', failure: 'generationFailed', type: 'RELEASE_UNSIGNED' },
] as const;

function generationCases(): WorkerCase[] {
  return GENERATIONS.flatMap(({ worker, failure, type }): WorkerCase[] => [
    {
      worker,
      prepare: async (h) => ({ path: '', method: '', ctx: { id: (await allButLast(h, type)).id } }),
      trigger: (h, prep) => lastVote(h, String(prep.ctx!.id), type),
      async settled(h, prep) {
        const id = String(prep.ctx!.id);
        const stuck = await generationSettles(h, id);
        if (stuck) return stuck;
        const p = await h.kit.details(id, h.u.admin.token);
        return p.status === 'APPROVED'
          ? null
          : `package ${id} is ${p.status} after Lambda's retries, not APPROVED`;
      },
    },
    {
      worker: failure,
      // every try of the generation dies at its first write: the failure handler gets the event
      alsoArm: [{ target: `worker:${worker}`, after: 1, times: 3 }],
      prepare: async (h) => ({ path: '', method: '', ctx: { id: (await allButLast(h, type)).id } }),
      trigger: (h, prep) => lastVote(h, String(prep.ctx!.id), type),
      async settled(h, prep) {
        const id = String(prep.ctx!.id);
        const p = await h.kit
          .waitFor(id, h.u.admin.token, (x) => x.status !== 'GENERATING', 60_000)
          .catch(() => h.kit.details(id, h.u.admin.token));
        return p.status === 'PENDING_APPROVAL' && p.generation?.state === 'FAILED'
          ? null
          : `package ${id} is ${p.status} (${JSON.stringify(p.generation)}), not back in PENDING_APPROVAL with its failure`;
      },
    },
  ]);
}

export function workerCases(): WorkerCase[] {
  return [
    ...generationCases(),
    {
      worker: 'verifyUpload',
      prepare: async (h) => ({ path: '', method: '', ctx: await uploadedNotConfirmed(h) }),
      trigger: async (h, prep) =>
        void (await h.kit.must(202, `/resources/uploads/${String(prep.ctx!.uploadId)}/confirm`, {
          method: 'POST',
          token: h.u.designDev.token,
        })),
      settled: (h, prep) => uploadSettles(h, String(prep.ctx!.uploadId)),
    },
    {
      worker: 'uploadVerifyFailed',
      alsoArm: [{ target: 'worker:verifyUpload', after: 1, times: 3 }],
      prepare: async (h) => ({ path: '', method: '', ctx: await uploadedNotConfirmed(h) }),
      trigger: async (h, prep) =>
        void (await h.kit.must(202, `/resources/uploads/${String(prep.ctx!.uploadId)}/confirm`, {
          method: 'POST',
          token: h.u.designDev.token,
        })),
      settled: (h, prep) => uploadSettles(h, String(prep.ctx!.uploadId), 'FAILED'),
    },
    {
      worker: 'mailOutbox',
      variant: 'one workflow mail',
      prepare: async (h) => ({
        path: '',
        method: '',
        ctx: { id: (await h.kit.notified(h.u, 'DEV_UNSIGNED')).id },
      }),
      // a rejection mails the initiator only
      trigger: async (h, prep) =>
        void (await h.kit.must(200, `/packages/${String(prep.ctx!.id)}/reject`, {
          ...decide(approversFor(h.u, 'DEV_UNSIGNED')[0]!.token),
          body: { 'rejection-reason': 'Wrong threshold' },
        })),
      async settled(h) {
        // the outbox sends after the decision's commit (and again after a killed run's lease ends)
        const waiting = await h.outboxSettled();
        if (waiting.length > 0) return waiting.join('; ');
        const sent = (await h.mailbox()).filter((m) => m.to.includes(h.u.designDev.email));
        return sent.length >= 1 ? null : 'the rejection mail never went out';
      },
      // writes: the claim (1), the mail service's send (2), SENT (3)
      mailMayRepeatAt: 2,
    },
    {
      worker: 'auditCopy',
      prepare: async () => ({ path: '', method: '' }),
      // any event: a DCC's creation is one
      trigger: async (h) => void (await h.kit.createDcc(h.u.designDev.token)),
      settled: (h) =>
        auditCopySettled(h.ddb, s3At(h.stack.s3Endpoint), 60_000).then(
          () => null,
          (e: Error) => e.message,
        ),
    },
  ];
}
