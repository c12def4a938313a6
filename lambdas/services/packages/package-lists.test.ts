import { describe, expect, it } from 'vitest';
import { packageWorld, SIG } from '../../testing/package-test-kit';

describe('package lists', () => {
  it('lists by stage and all, newest first, a page at a time', async () => {
    const w = packageWorld();
    const u = w.user('DESIGN_ENGINEER_DEV');
    const ids: string[] = [];
    for (const type of ['DEV_UNSIGNED', 'RELEASE_UNSIGNED', 'DEV_SIGNED'] as const) {
      ids.push((await w.draft(u, type)).id);
      w.clock.advance(1000);
    }
    expect((await w.service.listStage('DEV')).map((p) => p.id)).toEqual([ids[2], ids[0]]);
    expect((await w.service.listAll()).map((p) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    const first = await w.service.listAllPage({ limit: 2 });
    expect(first.packages.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const second = await w.service.listAllPage({ limit: 2, cursor: first.nextCursor });
    expect(second.packages.map((p) => p.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeUndefined();
    await expect(
      w.service.listStagePage('DEV', { limit: 2, cursor: first.nextCursor }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'cursor is not a cursor this list returned',
    });
    await expect(w.service.listDeliveryPage({ limit: 2, cursor: 'garbage' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('shows each approver what waits for them, and drops it once they decided', async () => {
    const w = packageWorld();
    const t = w.team();
    const dev = await w.draft(t.initiator, 'DEV_UNSIGNED');
    const release = await w.draft(t.initiator, 'RELEASE_UNSIGNED');
    const devApprovers = w.approversFor(t, 'DEV_UNSIGNED');
    const releaseApprovers = w.approversFor(t, 'RELEASE_UNSIGNED');
    await w.service.notify(t.initiator, dev.id, w.choice(devApprovers));
    await w.service.notify(t.initiator, release.id, w.choice(releaseApprovers));
    // one who approves both, first in the policy's order (may approve now)
    const a = w.inOrder(devApprovers).find((u) => releaseApprovers.includes(u))!;
    expect((await w.service.listApproval(a, 'DEV')).map((p) => p.id)).toEqual([dev.id]);
    expect((await w.service.listApproval(a, 'RELEASE')).map((p) => p.id)).toEqual([release.id]);
    expect(await w.service.listApproval(t.initiator, 'DEV')).toEqual([]);
    await w.service.approve(a, dev.id, SIG);
    expect(await w.service.listApproval(a, 'DEV')).toEqual([]);
    await w.service.reject(releaseApprovers.find((u) => u !== a)!, release.id, 'no', SIG);
    expect(await w.service.listApproval(a, 'RELEASE')).toEqual([]);
    expect(await w.service.listApproval(a, 'DELIVER')).toEqual([]);
    expect(await w.service.listSigning(t.release, 'DEV')).toEqual([]);
  });

  it('opens one package for a deep link with what it waits for from the caller', async () => {
    const w = packageWorld();
    const t = w.team();
    const dev = await w.draft(t.initiator, 'DEV_UNSIGNED');
    const approvers = w.approversFor(t, 'DEV_UNSIGNED');
    const a = w.inOrder(approvers)[0]!;
    expect(await w.service.openOne(a, dev.id)).toMatchObject({ pkg: { id: dev.id }, waitingFor: null });
    await w.service.notify(t.initiator, dev.id, w.choice(approvers));
    expect((await w.service.openOne(a, dev.id)).waitingFor).toBe('APPROVE');
    expect((await w.service.openOne(t.initiator, dev.id)).waitingFor).toBeNull();
    await w.service.approve(a, dev.id, SIG);
    expect(await w.service.openOne(a, dev.id)).toMatchObject({
      pkg: { id: dev.id, status: 'PENDING_APPROVAL' },
      waitingFor: null,
    });
    await expect(w.service.openOne(a, 'no-such-package')).rejects.toMatchObject({
      statusCode: 404,
      message: 'Package not found',
    });
  });
});
