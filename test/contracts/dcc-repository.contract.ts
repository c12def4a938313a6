import { describe, expect, it } from 'vitest';
import type { DccRepository } from '../../lambdas/ports/dcc-repository';
import type { Dcc } from '../../shared/api/contracts/dcc';
import { fresh } from './fresh-ids';

const dcc = (createdAt: string): Dcc => ({
  id: fresh('dcc'),
  deviceId: fresh('D'),
  telemetryType: 'TelA',
  messageLimit: 100,
  deviceLimit: 200,
  createdAt,
  createdBy: { id: 'admin', name: 'Ada' },
});

/**
 * What DccRepository promises (lambdas/ports/dcc-repository.ts), run against each adapter: an id is created
 * once, the list is newest first, a deletion is told whether it found the DCC. `make` may hand out the
 * same store for every case: each case uses ids of its own.
 */
export function dccRepositoryContract(adapter: string, make: () => Promise<DccRepository>) {
  describe(`DccRepository contract: ${adapter}`, () => {
    it('creates a DCC once and reads it back; an unknown id is null', async () => {
      const repo = await make();
      const d = dcc('2026-01-01T00:00:00.000Z');
      await repo.create(d);
      expect(await repo.get(d.id)).toEqual(d);
      expect(await repo.get(fresh('missing'))).toBeNull();
      await expect(repo.create({ ...d, deviceId: 'other' })).rejects.toThrow();
      expect(await repo.get(d.id)).toEqual(d);
    });

    it('lists newest first', async () => {
      const repo = await make();
      const made = ['2099-01-02', '2099-01-01', '2099-01-03'].map((day) => dcc(`${day}T00:00:00.000Z`));
      for (const d of made) await repo.create(d);
      const mine = new Set(made.map((d) => d.id));
      const listed = (await repo.list()).filter((d) => mine.has(d.id));
      expect(listed.map((d) => d.createdAt)).toEqual([
        '2099-01-03T00:00:00.000Z',
        '2099-01-02T00:00:00.000Z',
        '2099-01-01T00:00:00.000Z',
      ]);
      expect(listed[0]).toEqual(made[2]);
    });

    it('deletes once; a second deletion finds it missing', async () => {
      const repo = await make();
      const d = dcc('2026-01-01T00:00:00.000Z');
      await repo.create(d);
      expect(await repo.delete(d.id)).toBe('deleted');
      expect(await repo.get(d.id)).toBeNull();
      expect((await repo.list()).map((x) => x.id)).not.toContain(d.id);
      expect(await repo.delete(d.id)).toBe('missing');
      expect(await repo.delete(fresh('never'))).toBe('missing');
    });
  });
}
