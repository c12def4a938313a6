import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/domain/errors';
import { wholeListText } from './whole-list';

describe('whole lists of resources, DCCs and users', () => {
  it('answers the JSON text while it fits in 6 MB', () => {
    const rows = [{ id: 'a', name: 'x "quoted"' }];
    expect(wholeListText(rows, 'users')).toBe(JSON.stringify(rows));
  });

  it('answers a 413 with the count instead of a body Lambda cannot send, counting the escaping again', () => {
    // 3 MB of quotes: 6 MB once escaped inside the JSON body
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: String(i), note: '"'.repeat(100_000) }));
    const e = (() => {
      try {
        wholeListText(rows, 'DCCs');
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).statusCode).toBe(413);
    expect((e as AppError).message).toBe(
      'This list has 30 DCCs, more than one answer can carry (Lambda answers at most 6 MB). ' +
        'Ask for it a page at a time: ?offset=0&limit=25 (with search and sort, and the total).',
    );
    expect((e as AppError).extra).toEqual({ total: 30 });
  });
});
