import type { HeaderField } from '@shared/domain/header/header-schema';
import { afterEach, describe, expect, it } from 'vitest';
import { keepUnsaved, readUnsaved } from './unsaved-header';

const fields: HeaderField[] = [{ name: 'Package Id', type: 'uint16', value: 999 }];
const KEY = 'frp.unsavedHeader.p-7';

afterEach(() => localStorage.clear());

describe('header changes kept in this browser, read back through the header schema', () => {
  it('gives back what was kept', () => {
    keepUnsaved('p-7', fields, 'offline');
    expect(readUnsaved('p-7')).toMatchObject({ fields, reason: 'offline' });
  });

  it('offers nothing when the kept copy is not a header (an older build, a hand edit, not JSON)', () => {
    for (const text of [
      JSON.stringify({
        fields: [{ name: 'Package Id', type: 'uint16', value: 70000 }],
        at: 'x',
        reason: 'r',
      }),
      JSON.stringify({ fields: [{ name: 'Package Id', type: 'int16', value: 1 }], at: 'x', reason: 'r' }),
      JSON.stringify({ fields: [], reason: 'r' }),
      JSON.stringify([fields]),
      '{not json',
    ]) {
      localStorage.setItem(KEY, text);
      expect(readUnsaved('p-7'), text).toBeNull();
    }
  });
});
