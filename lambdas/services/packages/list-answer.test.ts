import { describe, expect, it } from 'vitest';
import type { Package } from '../../../shared/api/contracts/packages';
import { AppError, BadRequestError } from '../../../shared/domain/errors';
import { type ListReaders, listAnswer, WHOLE_LIST_MAX_ROWS } from './list-answer';

const pkg = (n: number, note = 'short'): Package => ({ id: `p${n}`, name: `p${n}`, note }) as Package;

function readers(count: number, whole: Package[] = []) {
  const calls: string[] = [];
  const r: ListReaders = {
    whole: async () => {
      calls.push('whole');
      return whole;
    },
    page: async (p) => {
      calls.push(`page ${p.limit} ${p.cursor ?? ''}`);
      return { packages: [pkg(1)], nextCursor: 'next' };
    },
    view: async (list, req) => {
      calls.push(
        `view ${list} ${req.offset} ${req.limit} ${req.search} ${req.sort?.by ?? ''} ${req.sort?.direction ?? ''}`,
      );
      return { packages: [pkg(2)], total: 42 };
    },
    count: async () => {
      calls.push('count');
      return count;
    },
  };
  return { r, calls };
}

describe('the package lists answer (decisions 050, 210)', () => {
  it('answers a view with its total, a cursor page with its next cursor, and no parameter with the whole list', async () => {
    const { r, calls } = readers(3, [pkg(1), pkg(2), pkg(3)]);
    expect(
      await listAnswer('DEV', { offset: 5, limit: 5, search: 'x', sort: 'name', order: 'desc' }, r),
    ).toEqual({
      packages: JSON.stringify([pkg(2)]),
      total: 42,
    });
    expect(await listAnswer('DEV', { limit: 10, cursor: 'c' }, r)).toEqual({
      packages: JSON.stringify([pkg(1)]),
      nextCursor: 'next',
    });
    expect(await listAnswer('DEV', {}, r)).toEqual({ packages: JSON.stringify([pkg(1), pkg(2), pkg(3)]) });
    expect(calls).toEqual(['view DEV 5 5 x name descending', 'page 10 c', 'count', 'whole']);
  });

  it('refuses a whole list of more packages than 6 MB can carry with a 413 that says how to page, reading none', async () => {
    const { r, calls } = readers(WHOLE_LIST_MAX_ROWS + 1);
    const e = await listAnswer('ALL', undefined, r).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).statusCode).toBe(413);
    expect((e as AppError).message).toContain('6,001 packages');
    expect((e as AppError).message).toContain('?offset=0&limit=25');
    expect((e as AppError).extra).toEqual({ total: WHOLE_LIST_MAX_ROWS + 1 });
    expect(calls).toEqual(['count']);
  });

  it('refuses a whole list whose answer would pass 6 MB, though it has few packages', async () => {
    const big = Array.from({ length: 100 }, (_, i) => pkg(i, 'n'.repeat(70_000)));
    const { r } = readers(100, big);
    const e = await listAnswer('DEV', undefined, r).catch((x: unknown) => x);
    expect((e as AppError).statusCode).toBe(413);
    // just under the cap it still answers whole
    const fits = await listAnswer('DEV', undefined, readers(80, big.slice(0, 80)).r);
    expect(JSON.parse(fits.packages)).toHaveLength(80);
  });

  it('refuses a cursor mixed with a view, and an order without a sort', async () => {
    const { r } = readers(1);
    await expect(listAnswer('DEV', { offset: 0, cursor: 'c' }, r)).rejects.toBeInstanceOf(BadRequestError);
    await expect(listAnswer('DEV', { offset: 0, order: 'asc' }, r)).rejects.toThrow('order needs sort');
  });
});
