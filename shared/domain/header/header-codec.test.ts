import { describe, expect, it } from 'vitest';
import { decodeHeader, encodedLength, encodeHeader, HeaderFormatError, headerLayout } from './header-codec';
import { computeFields, newPackageHeader, sealHeader } from './header-rules';
import type { Header, HeaderField, ListField } from './header-schema';
import { headerTemplate, START_OF_MESSAGE } from './header-template';

const ctx = { packageType: 'RELEASE_SIGNED', resourceSizeBytes: 1000, metadataSizeBytes: 20 } as const;

function field<T extends HeaderField['type']>(h: Header, name: string): Extract<HeaderField, { type: T }> {
  const f = h.fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f as Extract<HeaderField, { type: T }>;
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function withCriteria(n: number): Header {
  const h = headerTemplate();
  field<'list'>(h, 'Patch Criteria Items').value = Array.from({ length: n }, (_, i) => ({
    Address: 0x20000000 + i,
    Mask: 0xff,
    Value: i,
    Operator: 5,
  }));
  return computeFields(h, ctx);
}

describe('header layout', () => {
  it('puts the fixed part of the template in 64 bytes and the CRC last', () => {
    const layout = headerLayout(newPackageHeader(ctx));
    const at = Object.fromEntries(layout.map((l) => [l.field, l]));
    expect(at['Start Of Message']).toMatchObject({ offset: 0, width: 4 });
    expect(at['Device Model Id.Serial Number']).toMatchObject({ offset: 12, width: 4 });
    expect(at.Type).toMatchObject({ offset: 16, width: 1 });
    expect(at['Patch Id']).toMatchObject({ offset: 17, width: 8, encoding: 'mask64' });
    expect(at['Reserved Space']).toMatchObject({ offset: 58, width: 6 });
    expect(at['Patch Criteria Items.count']).toMatchObject({ offset: 64, width: 1 });
    expect(at['Header CRC']).toMatchObject({ offset: 67, width: 4 });
    expect(encodedLength(newPackageHeader(ctx))).toBe(71);
  });
  it('grows by 13 bytes per criteria entry', () => {
    expect(encodedLength(withCriteria(3))).toBe(71 + 3 * 13);
  });
});

describe('encodeHeader', () => {
  it('starts every header with the ASCII bytes FWPK', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('FWPK');
    expect(dv(bytes).getUint32(0, true)).toBe(START_OF_MESSAGE);
  });
  it('writes integers little-endian', () => {
    const h = headerTemplate();
    field<'uint32'>(h, 'Package Id').value = 0x11223344;
    field<'group'>(h, 'Device Model Id').value = {
      'Model Id': 0xaabb,
      'Sub Model Id': 1,
      'Serial Number': 2,
    };
    const bytes = encodeHeader(computeFields(h, ctx));
    expect([...bytes.subarray(4, 10)]).toEqual([0x44, 0x33, 0x22, 0x11, 0xbb, 0xaa]);
  });
  it('stores the Patch Id as a 64-bit mask with only its bit set', () => {
    const h = headerTemplate();
    field<'enum'>(h, 'Patch Id').value = 63;
    const bytes = encodeHeader(computeFields(h, ctx));
    expect(dv(bytes).getBigUint64(17, true)).toBe(1n << 63n);
  });
  it('writes the type code, the sizes and the header size the server computed', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    expect(bytes[16]).toBe(3);
    expect(dv(bytes).getUint32(30, true)).toBe(71);
    expect(dv(bytes).getUint32(46, true)).toBe(20);
    expect(dv(bytes).getUint32(54, true)).toBe(1000);
  });
  it('writes a list as its count then its entries', () => {
    const bytes = encodeHeader(withCriteria(2));
    expect(bytes[64]).toBe(2);
    expect(dv(bytes).getUint32(65, true)).toBe(0x20000000);
    expect(bytes[65 + 12]).toBe(5);
    expect(dv(bytes).getUint32(78, true)).toBe(0x20000001);
  });
  it('refuses a header whose CRC is stale', () => {
    const h = newPackageHeader(ctx);
    field<'uint32'>(h, 'Package Id').value = 7;
    expect(() => encodeHeader(h)).toThrow(/Header CRC: is 0x[0-9A-F]{8} but the bytes give/);
  });
  it('refuses a header whose size is stale', () => {
    const h = newPackageHeader(ctx);
    (field<'list'>(h, 'Patch Criteria Items') as ListField).value.push({
      Address: 1,
      Mask: 1,
      Value: 1,
      Operator: 0,
    });
    expect(() => encodeHeader(h)).toThrow(/Header Size: is 71 but the header is 84 bytes/);
  });
  it('refuses a header with a value above its type', () => {
    const h = newPackageHeader(ctx);
    field<'group'>(h, 'Device Model Id').value['Model Id'] = 65536;
    expect(() => encodeHeader(h)).toThrow(HeaderFormatError);
  });
});

describe('decodeHeader', () => {
  it('gives back the header that was encoded', () => {
    const h = withCriteria(4);
    expect(decodeHeader(encodeHeader(h))).toEqual(h);
  });
  it('reports a damaged byte as a CRC mismatch', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    bytes[5]! ^= 0x01;
    expect(() => decodeHeader(bytes)).toThrow(/Header CRC: is 0x[0-9A-F]{8} but the 67 bytes before it give/);
  });
  it('refuses bytes that do not start with the magic', () => {
    const h = newPackageHeader(ctx);
    const bytes = encodeHeader(h);
    bytes[0] = 0;
    const resealed = resealBytes(bytes);
    expect(() => decodeHeader(resealed)).toThrow(
      /Start Of Message: is 0x4B505700 at offset 0, expected the constant 0x4B505746/,
    );
  });
  it('refuses a Patch Id mask with two bits set', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    bytes[17] = 0b11;
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(
      /Patch Id: mask 0x0000000000000003 at offset 17 must have exactly one bit set/,
    );
  });
  it('refuses an operator that is not one of the options', () => {
    const bytes = encodeHeader(withCriteria(1));
    bytes[64 + 13] = 6;
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(
      /Patch Criteria Items\[0\]\.Operator: 6 at offset 77 is not one of the options/,
    );
  });
  it('refuses a list count above the maximum', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    bytes[64] = 17;
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(
      /count 17 at offset 64 is above the maximum of 16 entries/,
    );
  });
  it('refuses truncated bytes', () => {
    const bytes = encodeHeader(withCriteria(2));
    const cut = resealBytes(bytes.subarray(0, 70));
    expect(() => decodeHeader(cut)).toThrow(/the header ends at byte 70/);
  });
  it('refuses a Header Size that does not match the bytes', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    dv(bytes).setUint32(30, 70, true);
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(/Header Size: says 70 bytes but the header is 71/);
  });
  it('refuses bytes after the last field', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes.subarray(0, bytes.length - 4));
    expect(() => decodeHeader(resealBytes(longer))).toThrow(/1 bytes follow the last field/);
  });
  it('refuses an unknown package type code', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    bytes[16] = 4;
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(/Type: 4 at offset 16 is not a package type code/);
  });
  it('refuses non-zero reserved bytes', () => {
    const bytes = encodeHeader(newPackageHeader(ctx));
    bytes[60] = 1;
    expect(() => decodeHeader(resealBytes(bytes))).toThrow(
      /Reserved Space: bytes at offset 58 are 000001000000/,
    );
  });
  it('keeps sealHeader and encodeHeader in agreement', () => {
    const h = sealHeader(withCriteria(1));
    expect(() => encodeHeader(h)).not.toThrow();
  });
});

/** Rewrites the last four bytes with the CRC of the rest, to test the checks behind the CRC. */
function resealBytes(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  let c = 0xffffffff;
  for (let i = 0; i < out.length - 4; i++) {
    c ^= out[i]!;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  dv(out).setUint32(out.length - 4, (c ^ 0xffffffff) >>> 0, true);
  return out;
}
