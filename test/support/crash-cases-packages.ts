import type { Package, PackageStatus } from '../../shared/api/contracts/packages';
import { generationWorkerOf } from '../../shared/api/workers';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { jsonText } from './api';
import type { CrashHarness, Prepared, RouteCase } from './crash-harness';
import { approversFor, seededDeliverer, seededSigner } from './package-flow';

/**
 * The crash matrix's package routes (test/integration/crash-matrix.test.ts): each prepares, through the
 * API, a package in the state its step starts from, and says what "finished" means after the retry.
 */

const decide = (token: string) => ({ method: 'POST', token });
const REASON = { 'rejection-reason': 'The alarm threshold is not the reviewed one' };

/** Waits for the package to leave GENERATING (the worker, or after a crash `npm run ops:redrive`). */
export async function generationSettles(h: CrashHarness, id: string): Promise<string | null> {
  const leaves = () =>
    h.kit
      .waitFor(id, h.u.admin.token, (p) => p.status !== 'GENERATING', 45_000)
      .then(
        (p) => p,
        () => null,
      );
  if (await leaves()) return null;
  const redrive = await h.redrive();
  if (await leaves()) return null;
  const p = await h.kit.details(id, h.u.admin.token);
  return `package ${id} stays ${p.status} (generation ${JSON.stringify(p.generation)}), also after ops:redrive: ${redrive.trim().split('\n').at(-1)}`;
}

/** The package is now `status` (null), or what it is instead. */
async function statusIs(h: CrashHarness, id: string, ...status: PackageStatus[]): Promise<string | null> {
  const p = await h.kit.details(id, h.u.admin.token);
  return status.includes(p.status) ? null : `package ${id} is ${p.status}, not ${status.join(' or ')}`;
}

/** A package of `type` with every approval in but the last (the decider's). */
async function allButLast(h: CrashHarness, type: Package['type']): Promise<Package> {
  const pkg = await h.kit.notified(h.u, type);
  for (const v of approversFor(h.u, type).slice(0, -1))
    await h.kit.must(202, `/packages/${pkg.id}/approve`, decide(v.token));
  return pkg;
}

/** A signed package waiting for its signature. */
async function awaitingSignature(h: CrashHarness, type: Package['type'] = 'DEV_SIGNED'): Promise<Package> {
  const pkg = await allButLast(h, type);
  await h.kit.must(200, `/packages/${pkg.id}/approve`, decide(approversFor(h.u, type).at(-1)!.token));
  return pkg;
}

/** A signed release package, generated: ready to be sent for delivery. */
async function signedRelease(h: CrashHarness): Promise<Package> {
  const pkg = await awaitingSignature(h, 'RELEASE_SIGNED');
  await h.kit.must(202, `/packages/${pkg.id}/generate-signed`, decide(seededSigner(h.u).token));
  await h.kit.waitStatus(pkg.id, h.u.admin.token, 'SIGNED');
  return pkg;
}

/** The delivery round's approvers: one per role the policy asks for, never the deliverer. */
const deliveryVoters = (h: CrashHarness, pkg: Package) =>
  approversFor(h.u, pkg.type, 'delivery').filter((v) => v.id !== seededDeliverer(h.u).id);

const deliveryBody = (h: CrashHarness, pkg: Package) => ({
  approvers: deliveryVoters(h, pkg).map(({ role, id }) => ({ role, id })),
});

/**
 * A release package whose delivery round just started, nobody decided yet. Rounds are cheap to make
 * again on one package (a rejection, then a new delivery), so the delivery cases share one package.
 */
function deliveryPool() {
  let pkg: Package | undefined;
  return async (h: CrashHarness): Promise<Package> => {
    const deliverer = seededDeliverer(h.u).token;
    for (let tries = 0; tries < 4; tries++) {
      const p = pkg ? await h.kit.details(pkg.id, h.u.admin.token) : undefined;
      if (
        !p ||
        p.status === 'DELIVERED' ||
        !['SIGNED', 'DELIVERY_PENDING', 'DELIVERY_REJECTED'].includes(p.status)
      ) {
        pkg = await signedRelease(h);
        continue;
      }
      if (p.status === 'DELIVERY_PENDING' && p.deliveryApprovers.every((a) => !a.approved && !a.rejected))
        return p;
      if (p.status === 'DELIVERY_PENDING') {
        const undecided = deliveryVoters(h, p).find((v) =>
          p.deliveryApprovers.some((a) => a.user.id === v.id && !a.approved && !a.rejected),
        );
        if (!undecided) {
          pkg = undefined;
          continue;
        }
        await h.kit.must(200, `/delivery/packages/${p.id}/reject`, {
          ...decide(undecided.token),
          body: REASON,
        });
        continue;
      }
      await h.kit.must(200, `/delivery/packages/${p.id}/notify-approvers`, {
        ...decide(deliverer),
        body: deliveryBody(h, p),
      });
    }
    throw new Error('no delivery round could be prepared');
  };
}

/** Hands out, per run, an approver of a package in its round who has not decided and is not the last. */
function earlyVoterPool(type: Package['type']) {
  let pkg: Package | undefined;
  let next = 0;
  return async (h: CrashHarness): Promise<{ pkg: Package; token: string }> => {
    const voters = approversFor(h.u, type).slice(0, -1);
    if (!pkg || next >= voters.length) {
      pkg = await h.kit.notified(h.u, type);
      next = 0;
    }
    return { pkg, token: voters[next++]!.token };
  };
}

export function packageCases(): RouteCase[] {
  const early = earlyVoterPool('DEV_UNSIGNED');
  const delivery = deliveryPool();
  const draftHeader = async (h: CrashHarness, pkg: Package) => {
    const r = await h.kit.must<{ header: string }>(200, `/packages/${pkg.id}/header`, {
      token: h.u.designDev.token,
    });
    const header = jsonText<{ fields: { name: string; value: unknown }[] }>(r.body.header);
    header.fields.find((f) => f.name === 'Package Id')!.value = 4242;
    return JSON.stringify(header);
  };
  return [
    {
      route: 'generatePackage',
      async prepare(h) {
        const resource = await h.kit.uploadPatch(h.u.designDev.token);
        const name = `crash-${resource.id.slice(0, 8)}`;
        return {
          path: `/resources/${resource.id}/generate-package`,
          method: 'POST',
          token: h.u.designDev.token,
          body: { packageName: name, packageType: 'DEV_UNSIGNED', note: 'Crash matrix' },
        };
      },
    },
    {
      route: 'updateHeader',
      async prepare(h) {
        const resource = await h.kit.uploadPatch(h.u.designDev.token);
        const pkg = await h.kit.createPackage(h.u.designDev.token, resource.id, 'DEV_UNSIGNED');
        return {
          path: `/packages/${pkg.id}/header`,
          method: 'PATCH',
          token: h.u.designDev.token,
          body: { header: await draftHeader(h, pkg) },
        };
      },
    },
    {
      route: 'updateDraft',
      async prepare(h) {
        const resource = await h.kit.uploadPatch(h.u.designDev.token);
        const pkg = await h.kit.createPackage(h.u.designDev.token, resource.id, 'DEV_UNSIGNED');
        return {
          path: `/packages/${pkg.id}`,
          method: 'PATCH',
          token: h.u.designDev.token,
          body: { packageName: `${pkg.name}-renamed`, packageType: 'DEV_SIGNED', note: 'Signed after all' },
        };
      },
    },
    {
      route: 'attachDcc',
      async prepare(h) {
        const resource = await h.kit.uploadPatch(h.u.designDev.token);
        const pkg = await h.kit.createPackage(h.u.designDev.token, resource.id, 'DEV_UNSIGNED');
        const dcc = await h.kit.createDcc(h.u.designDev.token);
        return { path: `/packages/${pkg.id}/dcc/${dcc}`, method: 'POST', token: h.u.designDev.token };
      },
    },
    {
      route: 'notifyApprovers',
      async prepare(h) {
        const pkg = await h.kit.draft(h.u, 'DEV_UNSIGNED');
        return {
          path: `/packages/${pkg.id}/notify-approvers`,
          method: 'POST',
          token: h.u.designDev.token,
          body: h.kit.notifyBody(h.u, pkg),
        };
      },
    },
    {
      route: 'approvePackage',
      variant: 'not the last vote',
      async prepare(h) {
        const { pkg, token } = await early(h);
        return { path: `/packages/${pkg.id}/approve`, ...decide(token) };
      },
    },
    {
      route: 'approvePackage',
      variant: 'last vote, unsigned: generation',
      async prepare(h) {
        const pkg = await allButLast(h, 'DEV_UNSIGNED');
        return {
          path: `/packages/${pkg.id}/approve`,
          ...decide(approversFor(h.u, pkg.type).at(-1)!.token),
          ctx: { id: pkg.id },
        };
      },
      settled: async (h, prep) =>
        (await generationSettles(h, String(prep.ctx!.id))) ?? statusIs(h, String(prep.ctx!.id), 'APPROVED'),
    },
    {
      route: 'approvePackage',
      variant: 'last vote, signed: the signature is asked for',
      async prepare(h) {
        const pkg = await allButLast(h, 'DEV_SIGNED');
        return {
          path: `/packages/${pkg.id}/approve`,
          ...decide(approversFor(h.u, pkg.type).at(-1)!.token),
          ctx: { id: pkg.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'AWAITING_SIGNATURE'),
    },
    {
      route: 'rejectPackage',
      async prepare(h) {
        const { pkg, token } = await early(h);
        return { path: `/packages/${pkg.id}/reject`, ...decide(token), body: REASON, ctx: { id: pkg.id } };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'REJECTED'),
    },
    {
      route: 'signPackage',
      async prepare(h) {
        const pkg = await awaitingSignature(h);
        return {
          path: `/packages/${pkg.id}/generate-signed`,
          ...decide(seededSigner(h.u).token),
          ctx: { id: pkg.id },
        };
      },
      settled: async (h, prep) =>
        (await generationSettles(h, String(prep.ctx!.id))) ?? statusIs(h, String(prep.ctx!.id), 'SIGNED'),
    },
    {
      route: 'rejectSigning',
      async prepare(h) {
        const pkg = await awaitingSignature(h);
        return {
          path: `/packages/${pkg.id}/reject-signing`,
          ...decide(seededSigner(h.u).token),
          body: REASON,
          ctx: { id: pkg.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'REJECTED'),
    },
    {
      route: 'retryGeneration',
      async prepare(h) {
        const pkg = await allButLast(h, 'DEV_UNSIGNED');
        const decider = approversFor(h.u, pkg.type).at(-1)!;
        // every try of the generation dies at its first write: Lambda gives up, the failure handler returns
        // the package (the worker of the package's stage: only it holds that stage's key)
        await h.arm(`worker:${generationWorkerOf(pkg.resourceStage)}`, 1, 3);
        await h.kit.must(202, `/packages/${pkg.id}/approve`, decide(decider.token));
        await h.kit.waitFor(pkg.id, h.u.admin.token, (p) => p.generation?.state === 'FAILED');
        return {
          path: `/packages/${pkg.id}/retry-generation`,
          ...decide(decider.token),
          ctx: { id: pkg.id },
        };
      },
      settled: async (h, prep) =>
        (await generationSettles(h, String(prep.ctx!.id))) ?? statusIs(h, String(prep.ctx!.id), 'APPROVED'),
    },
    {
      route: 'notifyDeliveryApprovers',
      variant: 'first delivery',
      async prepare(h) {
        const pkg = await signedRelease(h);
        return {
          path: `/delivery/packages/${pkg.id}/notify-approvers`,
          ...decide(seededDeliverer(h.u).token),
          body: deliveryBody(h, pkg),
          ctx: { id: pkg.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'DELIVERY_PENDING'),
    },
    {
      route: 'notifyDeliveryApprovers',
      variant: 'delivered again after a rejection',
      async prepare(h) {
        const p = await delivery(h);
        const first = deliveryVoters(h, p)[0]!;
        await h.kit.must(200, `/delivery/packages/${p.id}/reject`, { ...decide(first.token), body: REASON });
        return {
          path: `/delivery/packages/${p.id}/notify-approvers`,
          ...decide(seededDeliverer(h.u).token),
          body: deliveryBody(h, p),
          ctx: { id: p.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'DELIVERY_PENDING'),
    },
    {
      route: 'approveDelivery',
      variant: 'not the last vote',
      async prepare(h) {
        const p = await delivery(h);
        return {
          path: `/delivery/packages/${p.id}/approve`,
          ...decide(deliveryVoters(h, p)[0]!.token),
        };
      },
    },
    {
      route: 'approveDelivery',
      variant: 'last vote: delivered',
      async prepare(h) {
        const p = await delivery(h);
        const voters = deliveryVoters(h, p);
        for (const v of voters.slice(0, -1))
          await h.kit.must(202, `/delivery/packages/${p.id}/approve`, decide(v.token));
        return {
          path: `/delivery/packages/${p.id}/approve`,
          ...decide(voters.at(-1)!.token),
          ctx: { id: p.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'DELIVERED'),
    },
    {
      route: 'rejectDelivery',
      async prepare(h) {
        const p = await delivery(h);
        return {
          path: `/delivery/packages/${p.id}/reject`,
          ...decide(deliveryVoters(h, p)[0]!.token),
          body: REASON,
          ctx: { id: p.id },
        };
      },
      settled: (h, prep) => statusIs(h, String(prep.ctx!.id), 'DELIVERY_REJECTED'),
    },
    {
      route: 'adminDeletePackages',
      variant: 'a draft',
      retryAnswers: [200, 204, 404],
      async prepare(h) {
        const resource = await h.kit.uploadPatch(h.u.designDev.token);
        const pkg = await h.kit.createPackage(h.u.designDev.token, resource.id, 'DEV_UNSIGNED');
        return { path: '/admin/packages', method: 'DELETE', token: h.u.admin.token, body: [pkg.id] };
      },
    },
    {
      route: 'adminDeletePackages',
      variant: 'in flight, signed, people told',
      retryAnswers: [200, 204, 404],
      async prepare(h): Promise<Prepared> {
        const pkg = await h.kit.notified(h.u, 'DEV_UNSIGNED');
        return {
          path: '/admin/packages',
          method: 'DELETE',
          token: h.u.admin.token,
          body: { ids: [pkg.id], password: SEED_PASSWORD, reason: 'Built from the wrong branch' },
        };
      },
    },
  ];
}
