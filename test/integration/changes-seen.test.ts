import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { api, jsonText, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  chosenApprovers,
  lastSteps,
  savePackageId,
} from '../support/package-flow';

/**
 * Decision 266: a decision on a review page records which comparison ("changes since the last approved
 * package") it was taken on; the page sends the digest it showed, the server recomputes it and refuses a
 * stale one (409, nothing recorded); a call without it records the comparison as not stated by a page.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

interface HistoryEvent {
  action: string;
  actorId: string;
  details?: { changesSeen?: Record<string, unknown> };
}

async function draft(dccId: string, packageId: number): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED', uniq('seen'));
  await savePackageId(u.designDev.token, pkg.id, packageId);
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  if (att.status !== 200) throw new Error(`dcc: ${att.status} ${JSON.stringify(att.body)}`);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type) },
  });
  if (n.status !== 200) throw new Error(`notify: ${n.status} ${JSON.stringify(n.body)}`);
  return pkg;
}

async function approved(pkg: Package) {
  await approveAllButLast(u, pkg);
  await lastSteps(u, pkg);
}

async function digestOf(id: string) {
  const r = await api<{ digest: string; previousPackageId: string | null }>(`/packages/${id}/changes`, {
    token: u.lead.token,
  });
  expect(r.status).toBe(200);
  expect(r.body.digest).toMatch(/^[0-9a-f]{64}$/);
  return r.body;
}

async function events(id: string): Promise<HistoryEvent[]> {
  const h = await api<{ history: string }>(`/packages/${id}/history`, { token: u.lead.token });
  return jsonText<HistoryEvent[]>(h.body.history);
}

describe('the comparison a decision was taken on is on the record (decision 266)', () => {
  it('records the digest seen, refuses a stale one with 409 and nothing recorded, records a call without one as not seen on a page', async () => {
    const dccId = await createDcc(u.designDev.token, uniq('device-seen'));
    const first = await draft(dccId, 1);
    // the voters in the policy's order: the first decides on a page, the last decides the round, and
    // the ones between approve (so a policy with an order needs no change here); needs three at least
    const voters = approversFor(u, first.type);
    expect(voters.length).toBeGreaterThanOrEqual(3);
    const [onPage, reloading, last] = [voters[0]!, voters[1]!, voters.at(-1)!];
    const between = voters.slice(2, -1);
    // nothing approved before: "none", and the same digest each time (the comparison is deterministic)
    const none = await digestOf(first.id);
    expect(none.previousPackageId).toBeNull();
    expect((await digestOf(first.id)).digest).toBe(none.digest);
    const a = await api(`/packages/${first.id}/approve`, {
      method: 'POST',
      token: onPage.token,
      body: { changesSeen: none.digest },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(202);
    expect((await events(first.id)).find((e) => e.action === 'APPROVED')?.details?.changesSeen).toEqual({
      previousPackageId: 'none',
      digest: none.digest,
      seenOnPage: true,
    });
    // API clients that state nothing: the comparison at the call is recorded, not as seen on a page
    for (const who of voters.slice(1, -1)) {
      const r = await api(`/packages/${first.id}/approve`, { method: 'POST', token: who.token });
      expect(r.status).toBe(202);
    }
    expect(
      (await events(first.id)).filter((e) => e.action === 'APPROVED').map((e) => e.details?.changesSeen),
    ).toEqual([
      { previousPackageId: 'none', digest: none.digest, seenOnPage: true },
      ...voters
        .slice(1, -1)
        .map(() => ({ previousPackageId: 'none', digest: none.digest, seenOnPage: false })),
    ]);
    await lastSteps(u, first);

    const second = await draft(dccId, 2);
    const seen = await digestOf(second.id);
    expect(seen.previousPackageId).toBe(first.id);
    expect(seen.digest).not.toBe(none.digest);
    const ok = await api(`/packages/${second.id}/approve`, {
      method: 'POST',
      token: onPage.token,
      body: { changesSeen: seen.digest },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);

    // meanwhile another package of the device is approved: the comparison of `second` is now against it
    const third = await draft(dccId, 3);
    await approved(third);
    const now = await digestOf(second.id);
    expect(now.previousPackageId).toBe(third.id);
    expect(now.digest).not.toBe(seen.digest);

    // a page opened before that: refused, and nothing recorded
    const before = await events(second.id);
    const stale = await api<{ errorMessage: string }>(`/packages/${second.id}/approve`, {
      method: 'POST',
      token: reloading.token,
      body: { changesSeen: seen.digest },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMessage).toBe(MSG.changesStale);
    const staleReject = await api<{ errorMessage: string }>(`/packages/${second.id}/reject`, {
      method: 'POST',
      token: reloading.token,
      body: { 'rejection-reason': 'Too old', changesSeen: seen.digest },
    });
    expect(staleReject.status).toBe(409);
    expect(await events(second.id)).toEqual(before);

    // not a digest: 400
    const bad = await api<{ errorMessage: string }>(`/packages/${second.id}/approve`, {
      method: 'POST',
      token: reloading.token,
      body: { changesSeen: 'not-a-digest' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/changesSeen/);

    // reloaded: decided on the current comparison, recorded as seen
    const fresh = await api(`/packages/${second.id}/approve`, {
      method: 'POST',
      token: reloading.token,
      body: { changesSeen: now.digest },
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(202);
    // an API client that states nothing: the comparison at the call is recorded, not as seen on a page
    for (const who of between) {
      const api3 = await api(`/packages/${second.id}/approve`, { method: 'POST', token: who.token });
      expect(api3.status).toBe(202);
    }
    // the rejection records it too
    const rej = await api(`/packages/${second.id}/reject`, {
      method: 'POST',
      token: last.token,
      body: { 'rejection-reason': 'Criteria missing', changesSeen: now.digest },
    });
    expect(rej.status, JSON.stringify(rej.body)).toBe(200);

    const record = (await events(second.id)).filter((e) => e.details?.changesSeen);
    expect(record.map((e) => [e.action, e.actorId, e.details?.changesSeen])).toEqual([
      [
        'APPROVED',
        onPage.id,
        {
          previousPackageId: first.id,
          previousPackageName: first.name,
          digest: seen.digest,
          seenOnPage: true,
        },
      ],
      [
        'APPROVED',
        reloading.id,
        {
          previousPackageId: third.id,
          previousPackageName: third.name,
          digest: now.digest,
          seenOnPage: true,
        },
      ],
      ...between.map((who) => [
        'APPROVED',
        who.id,
        {
          previousPackageId: third.id,
          previousPackageName: third.name,
          digest: now.digest,
          seenOnPage: false,
        },
      ]),
      [
        'REJECTED',
        last.id,
        {
          previousPackageId: third.id,
          previousPackageName: third.name,
          digest: now.digest,
          seenOnPage: true,
        },
      ],
    ]);
  }, 300_000);
});
