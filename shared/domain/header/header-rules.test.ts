import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../errors';
import { decodeHeader, encodeHeader } from './header-codec';
import {
  computeFields,
  newPackageHeader,
  validateHeaderUpdate,
  validateHeaderUpdateOrThrow,
} from './header-rules';
import { type Header, headerSchema } from './header-schema';
import { headerTemplate } from './header-template';

const ctx = { packageType: 'DEV_SIGNED', resourceSizeBytes: 4096 } as const;
const current = () => newPackageHeader(ctx);
const value = (h: Header, name: string) => h.fields.find((f) => f.name === name)?.value;

function errorsOf(submitted: unknown): string[] {
  const r = validateHeaderUpdate(current(), submitted);
  if (r.ok) throw new Error('expected the update to be refused');
  return r.errors.map((e) => `${e.field}: ${e.message}`);
}

function accepted(submitted: unknown) {
  const r = validateHeaderUpdate(current(), submitted);
  if (!r.ok) throw new Error(`expected the update to pass: ${JSON.stringify(r.errors)}`);
  return r;
}

describe('validateHeaderUpdate', () => {
  it('accepts the header exactly as GET returned it', () => {
    const r = accepted(current());
    expect(r.header).toEqual(current());
    expect(r.ignored).toEqual([]);
  });
  it('stores an edited uint32 and recomputes the CRC', () => {
    const r = accepted({ fields: [{ name: 'Package Id', value: 4294967295 }] });
    expect(value(r.header, 'Package Id')).toBe(4294967295);
    expect(value(r.header, 'Header CRC')).not.toBe(value(current(), 'Header CRC'));
    expect(decodeHeader(encodeHeader(r.header))).toEqual(r.header);
  });
  it('keeps fields that are left out', () => {
    const r = accepted({ fields: [{ name: 'Package Id', value: 9 }] });
    expect(value(r.header, 'Update Operation Type')).toBe(0);
    expect(value(r.header, 'Patch Data Size')).toBe(4096);
  });
  it('accepts decimal and 0x-hex text as numbers', () => {
    const r = accepted({
      fields: [
        { name: 'Package Id', value: '0xFF' },
        { name: 'Installer Size', value: ' 1234 ' },
      ],
    });
    expect(value(r.header, 'Package Id')).toBe(255);
    expect(value(r.header, 'Installer Size')).toBe(1234);
  });
  it('accepts the header as JSON text or as a bare list of fields', () => {
    expect(accepted(JSON.stringify({ fields: [{ name: 'Package Id', value: 1 }] })).ok).toBe(true);
    expect(accepted([{ name: 'Package Id', value: 1 }]).ok).toBe(true);
  });
  it('refuses a value that is not a number', () => {
    expect(errorsOf({ fields: [{ name: 'Package Id', value: 'abc' }] })).toEqual([
      'Package Id: "abc" is not a number',
    ]);
    expect(errorsOf({ fields: [{ name: 'Package Id', value: true }] })).toEqual([
      'Package Id: true is not a number',
    ]);
  });
  it('refuses a uint32 above 4294967295', () => {
    expect(errorsOf({ fields: [{ name: 'Package Id', value: 4294967296 }] })).toEqual([
      'Package Id: 4294967296 is above the maximum 4294967295 of a uint32',
    ]);
  });
  it('refuses a uint16 above 65535', () => {
    expect(errorsOf({ fields: [{ name: 'Device Model Id', value: { 'Model Id': 65536 } }] })).toEqual([
      'Device Model Id.Model Id: 65536 is above the maximum 65535 of a uint16',
    ]);
  });
  it('refuses a uint8 above 255', () => {
    const flags: Header = {
      fields: [
        { name: 'Flags', type: 'uint8', value: 0 },
        { name: 'Header CRC', type: 'fixed', storage: 'uint32', width: 4, value: 0, computed: 'headerCrc' },
      ],
    };
    const r = validateHeaderUpdate(flags, { fields: [{ name: 'Flags', value: 256 }] });
    expect(r).toEqual({
      ok: false,
      errors: [{ field: 'Flags', message: '256 is above the maximum 255 of a uint8' }],
    });
  });
  it('refuses an operator outside its options inside a list entry', () => {
    expect(
      errorsOf({
        fields: [{ name: 'Patch Criteria Items', value: [{ Address: 1, Mask: 2, Value: 3, Operator: 256 }] }],
      }),
    ).toEqual([
      expect.stringMatching(
        /^Patch Criteria Items\[0\]\.Operator: 256 is not one of the options EQUAL \(0\)/,
      ),
    ]);
  });
  it('refuses negative and fractional numbers', () => {
    expect(errorsOf({ fields: [{ name: 'Package Id', value: -1 }] })).toEqual([
      'Package Id: -1 is negative; uint32 values start at 0',
    ]);
    expect(errorsOf({ fields: [{ name: 'Package Id', value: 1.5 }] })).toEqual([
      'Package Id: 1.5 is not a whole number',
    ]);
  });
  it('accepts an enum by option value or by label', () => {
    expect(
      value(
        accepted({ fields: [{ name: 'Update Operation Type', value: 2 }] }).header,
        'Update Operation Type',
      ),
    ).toBe(2);
    expect(
      value(
        accepted({ fields: [{ name: 'Update Operation Type', value: 'rollback' }] }).header,
        'Update Operation Type',
      ),
    ).toBe(2);
  });
  it('refuses an enum value that is not one of the options', () => {
    expect(errorsOf({ fields: [{ name: 'Update Operation Type', value: 'REBOOT' }] })).toEqual([
      'Update Operation Type: "REBOOT" is not one of the options INSTALL (0), UPDATE (1), ROLLBACK (2)',
    ]);
    expect(errorsOf({ fields: [{ name: 'Patch Id', value: 64 }] })).toEqual([
      expect.stringMatching(/^Patch Id: 64 is not one of the options Patch 1 \(0\), .*\(64 in all\)$/),
    ]);
  });
  it('refuses an unknown field', () => {
    expect(errorsOf({ fields: [{ name: 'Boot Vector', value: 1 }] })).toEqual([
      'Boot Vector: is not a field of this header',
    ]);
  });
  it('refuses a field sent twice', () => {
    expect(
      errorsOf({
        fields: [
          { name: 'Package Id', value: 1 },
          { name: 'Package Id', value: 2 },
        ],
      }),
    ).toEqual(['Package Id: is sent twice']);
  });
  it('refuses a field whose type does not match the template', () => {
    expect(errorsOf({ fields: [{ name: 'Package Id', type: 'uint8', value: 1 }] })).toEqual([
      'Package Id: is a uint32 field, not "uint8"',
    ]);
  });
  it('ignores a changed fixed field and reports it', () => {
    const r = accepted({
      fields: [
        { name: 'Start Of Message', value: 0 },
        { name: 'Patch Data Size', value: 1 },
        { name: 'Header CRC', value: 1 },
        { name: 'Type', value: value(current(), 'Type') },
      ],
    });
    expect(r.header).toEqual(current());
    expect(r.ignored).toEqual(['Start Of Message', 'Patch Data Size', 'Header CRC']);
  });
  it('stores list entries made from the template', () => {
    const entry = { Address: 0x08000000, Mask: 0xffff, Value: 0x1234, Operator: 'MORE_AND_EQUAL' };
    const r = accepted({ fields: [{ name: 'Flash Update Criteria Items', value: [entry, entry] }] });
    expect(value(r.header, 'Flash Update Criteria Items')).toEqual([
      { Address: 0x08000000, Mask: 0xffff, Value: 0x1234, Operator: 5 },
      { Address: 0x08000000, Mask: 0xffff, Value: 0x1234, Operator: 5 },
    ]);
    expect(value(r.header, 'Header Size')).toBe(71 + 26);
  });
  it('refuses a list entry that does not match the template', () => {
    expect(
      errorsOf({
        fields: [{ name: 'Patch Criteria Items', value: [{ Address: 1, Mask: 2, Value: 3, Op: 0 }, 7] }],
      }),
    ).toEqual([
      'Patch Criteria Items[0].Op: is not part of the template',
      'Patch Criteria Items[0].Operator: is missing',
      'Patch Criteria Items[1]: must be an object with Address, Mask, Value, Operator',
    ]);
  });
  it('refuses a list with more than 16 entries', () => {
    const e = { Address: 0, Mask: 0, Value: 0, Operator: 0 };
    expect(errorsOf({ fields: [{ name: 'Patch Criteria Items', value: Array(17).fill(e) }] })).toEqual([
      'Patch Criteria Items: has 17 entries; at most 16 are allowed',
    ]);
  });
  it('refuses a list value that is not a list', () => {
    expect(errorsOf({ fields: [{ name: 'Patch Criteria Items', value: {} }] })).toEqual([
      'Patch Criteria Items: must be a list of entries',
    ]);
  });
  it('refuses what is not a header document', () => {
    expect(errorsOf('{not json')).toEqual(['header: is not valid JSON']);
    expect(errorsOf(42)).toEqual([expect.stringMatching(/^header: must be a JSON document/)]);
    expect(errorsOf({ fields: [{ value: 1 }] })).toEqual([
      'fields[0]: must be an object with a name and a value',
    ]);
    expect(errorsOf({ fields: [{ name: 'Package Id' }] })).toEqual(['Package Id: has no value']);
  });
  it('lists every problem at once', () => {
    expect(
      errorsOf({
        fields: [
          { name: 'Package Id', value: 'x' },
          { name: 'Installer Size', value: -2 },
        ],
      }),
    ).toHaveLength(2);
  });
});

describe('validateHeaderUpdateOrThrow', () => {
  it('throws a 400 naming each field and its problem', () => {
    const attempt = () =>
      validateHeaderUpdateOrThrow(current(), { fields: [{ name: 'Package Id', value: 'x' }] });
    expect(attempt).toThrow(BadRequestError);
    expect(attempt).toThrow('Invalid header: Package Id "x" is not a number');
    try {
      attempt();
    } catch (e) {
      expect((e as BadRequestError).statusCode).toBe(400);
      expect((e as BadRequestError).extra.headerErrors).toEqual([
        { field: 'Package Id', message: '"x" is not a number' },
      ]);
    }
  });
});

describe('computeFields', () => {
  it('sets the type code of each package type', () => {
    const types = ['DEV_UNSIGNED', 'DEV_SIGNED', 'RELEASE_UNSIGNED', 'RELEASE_SIGNED'] as const;
    expect(
      types.map((t) => value(newPackageHeader({ packageType: t, resourceSizeBytes: 0 }), 'Type')),
    ).toEqual([0, 1, 2, 3]);
  });
  it('sets the patch data and config sizes from the resource and its metadata', () => {
    const h = newPackageHeader({
      packageType: 'RELEASE_UNSIGNED',
      resourceSizeBytes: 52_428_800,
      metadataSizeBytes: 321,
    });
    expect(value(h, 'Patch Data Size')).toBe(52_428_800);
    expect(value(h, 'Patch Config Size')).toBe(321);
    expect(value(h, 'Header Size')).toBe(71);
  });
  it('refuses a resource larger than a uint32 can describe', () => {
    expect(() => newPackageHeader({ packageType: 'DEV_SIGNED', resourceSizeBytes: 2 ** 32 })).toThrow(
      BadRequestError,
    );
  });
  it('does not change the header it is given', () => {
    const h = headerTemplate();
    const before = structuredClone(h);
    computeFields(h, ctx);
    expect(h).toEqual(before);
  });
  it('produces a header the zod schema accepts', () => {
    expect(headerSchema.safeParse(newPackageHeader(ctx)).success).toBe(true);
  });
});

describe('headerSchema', () => {
  it('rejects a header whose enum value is not an option', () => {
    const h = newPackageHeader(ctx);
    const f = h.fields.find((x) => x.name === 'Update Operation Type')!;
    f.value = 9;
    const r = headerSchema.safeParse(h);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^Update Operation Type: 9 is not one of the options/);
  });
  it('rejects a header whose CRC is not the last field', () => {
    const h = newPackageHeader(ctx);
    h.fields.push(h.fields.shift()!);
    expect(headerSchema.safeParse(h).error?.issues.map((i) => i.message)).toContain(
      'Header CRC: the header CRC must be the last field: it covers every byte before it',
    );
  });
});
