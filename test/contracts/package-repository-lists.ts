import { expect, it } from 'vitest';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import { BadRequestError } from '../../shared/domain/errors';
import { fresh } from './fresh-ids';
import { type PackageRepositorySubject, record, walk } from './package-records';

/** The PackageRepository contract's reads of many packages: by ids, the lists and their pages, drafts. */
export function packageListCases(make: () => Promise<PackageRepositorySubject>) {
  it('reads many by id, skipping missing ones and repeats', async () => {
    const s = await make();
    const res = fresh('res');
    await s.addResource(res);
    const a = record({ id: fresh('p'), name: fresh('Many'), resourceId: res });
    const b = record({ id: fresh('p'), name: fresh('Many'), resourceId: res });
    await s.repo.create(a);
    await s.repo.create(b);
    const got = await s.repo.getMany([b.id, fresh('missing'), a.id, b.id]);
    expect(got.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(await s.repo.getMany([])).toEqual([]);
  });

  it('lists newest first and pages through every package once; a foreign cursor is bad input', async () => {
    const s = await make();
    const res = fresh('res');
    await s.addResource(res);
    const made: PackageRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const p = record({
        id: fresh('p'),
        name: fresh('Listed'),
        resourceId: res,
        resourceStage: 'RELEASE',
        // far in the future, so this case's packages are the newest on shared tables
        createdAt: `2099-01-0${i + 1}T00:00:00.000Z`,
        ...(i < 3 ? { deliveryStartedAt: `2099-02-0${5 - i}T00:00:00.000Z` } : {}),
      });
      made.push(p);
      expect(await s.repo.create(p)).toBe('ok');
    }
    const mine = new Set(made.map((p) => p.id));
    const own = (ids: string[]) => ids.filter((id) => mine.has(id));
    const newestFirst = [...made].reverse().map((p) => p.id);
    expect(own((await s.repo.listAll()).map((p) => p.id))).toEqual(newestFirst);
    expect(own((await s.repo.listByStage('RELEASE')).map((p) => p.id))).toEqual(newestFirst);
    expect(own((await s.repo.listByStage('DEV')).map((p) => p.id))).toEqual([]);
    expect((await s.repo.listByResource(res)).map((p) => p.id)).toEqual(newestFirst);
    // the delivery list holds packages in delivery, newest delivery first
    expect(own((await s.repo.listDelivery()).map((p) => p.id))).toEqual(made.slice(0, 3).map((p) => p.id));

    for (const limit of [1, 2, 3]) {
      const all = await walk((cursor) => s.repo.listAllPage({ limit, ...(cursor ? { cursor } : {}) }), limit);
      expect(own(all)).toEqual(newestFirst);
      expect(new Set(all).size).toBe(all.length);
      const staged = await walk(
        (cursor) => s.repo.listByStagePage('RELEASE', { limit, ...(cursor ? { cursor } : {}) }),
        limit,
      );
      expect(own(staged)).toEqual(newestFirst);
    }
    // the first page of a list is its newest packages; fewer left than asked: no cursor
    const first = await s.repo.listAllPage({ limit: 2 });
    expect(first.items.map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
    const delivery = await s.repo.listDeliveryPage({ limit: 10 });
    expect(own(delivery.items.map((p) => p.id))).toEqual(made.slice(0, 3).map((p) => p.id));

    const stageCursor = (await s.repo.listByStagePage('RELEASE', { limit: 1 })).next;
    expect(stageCursor).toBeDefined();
    await expect(s.repo.listAllPage({ limit: 2, cursor: 'not a cursor' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    // a cursor of another list does not continue this one
    await expect(s.repo.listByStagePage('DEV', { limit: 2, cursor: stageCursor })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });

  it("lists a user's drafts of a stage, and only theirs", async () => {
    const s = await make();
    const res = fresh('res');
    await s.addResource(res);
    const [me, other] = [fresh('u'), fresh('u')];
    const draft = (initiator: string, stage: 'DEV' | 'RELEASE', createdAt: string) =>
      record({
        id: fresh('p'),
        name: fresh('Draft'),
        resourceId: res,
        status: 'DRAFT',
        resourceStage: stage,
        createdAt,
        initiator: { id: initiator, name: 'I', email: 'i@example.com', userRole: 'DESIGN_ENGINEER_DEV' },
      });
    const older = draft(me, 'DEV', '2026-03-01T00:00:00.000Z');
    const newer = draft(me, 'DEV', '2026-03-02T00:00:00.000Z');
    for (const p of [
      older,
      newer,
      draft(me, 'RELEASE', '2026-03-03T00:00:00.000Z'),
      draft(other, 'DEV', '2026-03-04T00:00:00.000Z'),
    ])
      await s.repo.create(p);
    expect((await s.repo.draftsOf(me, 'DEV')).map((p) => p.id)).toEqual([newer.id, older.id]);
    // a draft that moved on is no longer on the list
    await s.repo.save({ ...newer, status: 'PENDING_APPROVAL', version: 2 }, { version: 1, status: 'DRAFT' });
    expect((await s.repo.draftsOf(me, 'DEV')).map((p) => p.id)).toEqual([older.id]);
  });
}
