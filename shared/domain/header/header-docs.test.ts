import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHeader, headerLayout } from './header-codec';
import { newPackageHeader, validateHeaderUpdate } from './header-rules';

/** Keeps docs/package-format.md, which device teams build from, in step with the codec. */
const doc = readFileSync(join(__dirname, '../../../docs/package-format.md'), 'utf8');

describe('docs/package-format.md', () => {
  it('gives the offset, width and encoding the codec uses for every fixed field', () => {
    const rows = [...doc.matchAll(/^\| (\d+) \| (\d+) \| (\w+) \| ([^|]+?) \|/gm)].map((m) => ({
      offset: Number(m[1]),
      width: Number(m[2]),
      encoding: m[3],
      field: m[4],
    }));
    const layout = headerLayout(newPackageHeader({ packageType: 'DEV_UNSIGNED', resourceSizeBytes: 0 }))
      .filter((l) => l.offset <= 64)
      .map(({ offset, width, encoding, field }) => ({ offset, width, encoding, field }));
    expect(rows.slice(0, layout.length)).toEqual(layout);
  });
  it('shows the bytes the codec produces for its example header', () => {
    const r = validateHeaderUpdate(
      newPackageHeader({ packageType: 'RELEASE_SIGNED', resourceSizeBytes: 52_428_800 }),
      {
        fields: [
          { name: 'Package Id', value: 258 },
          { name: 'Device Model Id', value: { 'Model Id': 16, 'Sub Model Id': 2, 'Serial Number': 123456 } },
          { name: 'Patch Id', value: 'Patch 6' },
          { name: 'Update Operation Type', value: 'UPDATE' },
          { name: 'Header Destination', value: '0x08000000' },
          { name: 'Patch Data Destination', value: '0x08010000' },
          {
            name: 'Patch Criteria Items',
            value: [{ Address: 0x1fff7a10, Mask: 0xffff, Value: 0x0410, Operator: 'EQUAL' }],
          },
        ],
      },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const dump = [...doc.matchAll(/^([0-9a-f]{4}) ((?:[0-9a-f]{2} ?)+)/gm)]
      .map((m) => m[2]!.trim())
      .join(' ');
    expect(dump).toBe(
      Buffer.from(encodeHeader(r.header))
        .toString('hex')
        .replace(/(..)(?!$)/g, '$1 '),
    );
  });
});
