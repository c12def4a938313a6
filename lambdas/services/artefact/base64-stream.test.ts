import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Decoder, Base64Encoder, Base64Error, decodeBase64 } from './base64-stream';

/** Splits `total` items at the given cut points (any order, any values), for chunking properties. */
function pieces<T extends { length: number; slice(a: number, b?: number): T }>(
  whole: T,
  cuts: number[],
): T[] {
  const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let prev = 0;
  for (const c of [...at, whole.length]) {
    out.push(whole.slice(prev, c));
    prev = c;
  }
  return out;
}

describe('streaming base64', () => {
  it('encodes any bytes in any chunking exactly as Buffer does in one go', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const enc = new Base64Encoder();
        const text =
          pieces(bytes, cuts)
            .map((p) => enc.push(p))
            .join('') + enc.end();
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });
  it('keeps its carry when the caller reuses the chunk buffer', () => {
    const enc = new Base64Encoder();
    const buf = Uint8Array.of(1, 2, 3, 4);
    let text = enc.push(buf);
    buf.fill(9);
    text += enc.push(Uint8Array.of(5, 6)) + enc.end();
    expect(text).toBe(Buffer.from([1, 2, 3, 4, 5, 6]).toString('base64'));
  });
  it('refuses a line break or a space anywhere in the text', () => {
    const text = Buffer.alloc(120, 7).toString('base64');
    expect(() => decodeBase64(`${text.slice(0, 76)}\n${text.slice(76)}`)).toThrow(/line break/);
    expect(() => decodeBase64(`${text.slice(0, 76)}\r\n${text.slice(76)}`)).toThrow(/line break/);
    expect(() => decodeBase64(` ${text}`)).toThrow(/white space/);
    expect(() => decodeBase64(`${text}\n`)).toThrow(/line break/);
  });
  it('decodes base64 in any chunking back to the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const text = Buffer.from(bytes).toString('base64');
        const dec = new Base64Decoder();
        const out = Buffer.concat([...pieces(text, cuts).map((p) => dec.push(p)), dec.end()]);
        expect(out).toEqual(Buffer.from(bytes));
      }),
    );
  });
  it('refuses characters that are not base64', () => {
    expect(() => decodeBase64('QUJD*')).toThrow(Base64Error);
    expect(() => decodeBase64('QU&JD')).toThrow(/not base64/);
  });
  it('refuses text that continues after its padding', () => {
    expect(() => decodeBase64('QQ==QUJD')).toThrow(/after its padding/);
    const d = new Base64Decoder();
    d.push('QQ=');
    expect(() => d.push('=QQ')).toThrow(/after its padding/);
  });
  it('refuses truncated text', () => {
    expect(() => decodeBase64('QUJDR')).toThrow(/truncated/);
  });
  it('refuses non-zero padding bits, so one text means one byte string', () => {
    expect(() => decodeBase64('QR==')).toThrow(/padding bits/);
    expect(decodeBase64('QQ==')).toEqual(Buffer.from('A'));
  });
});
