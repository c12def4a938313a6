import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Base64BufferEncoder,
  Base64Decoder,
  Base64Encoder,
  Base64Error,
  decodeBase64,
} from './base64-stream';

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
  it('encodes into its Buffer: any bytes, any chunking, any size, exactly as Buffer does in one go', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 12 }),
        (bytes, cuts, quads) => {
          const size = quads * 4;
          const enc = new Base64BufferEncoder(size);
          // copied as they come: each Buffer is lent until the next is asked for
          const out: Buffer[] = [];
          for (const p of pieces(bytes, cuts)) for (const b of enc.push(p)) out.push(Buffer.from(b));
          for (const b of enc.end()) out.push(Buffer.from(b));
          expect(Buffer.concat(out).toString('latin1')).toBe(Buffer.from(bytes).toString('base64'));
          // every Buffer but the last is full; none is empty
          expect(out.slice(0, -1).filter((b) => b.length !== size)).toEqual([]);
          expect(out.filter((b) => b.length === 0)).toEqual([]);
        },
      ),
    );
  });
  it('lends one Buffer, written again only when the next is asked for', () => {
    const enc = new Base64BufferEncoder(8);
    const steps = enc.push(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    const first = steps.next().value as Buffer;
    expect(first.toString('latin1')).toBe(Buffer.from([1, 2, 3, 4, 5, 6]).toString('base64'));
    const second = steps.next().value as Buffer;
    // the same memory, now holding the next text: a reader that keeps a chunk must copy it first
    expect(second.buffer).toBe(first.buffer);
    expect(first.toString('latin1')).toBe(Buffer.from([7, 8, 9, 10, 11, 12]).toString('base64'));
    expect(steps.next().done).toBe(true);
  });
  it('keeps its carry when the caller reuses its chunk', () => {
    const enc = new Base64BufferEncoder(8);
    const chunk = Uint8Array.of(1, 2, 3, 4, 5, 6, 7);
    const out: Buffer[] = [];
    for (const b of enc.push(chunk)) out.push(Buffer.from(b));
    chunk.fill(9);
    for (const b of enc.push(Uint8Array.of(8, 9))) out.push(Buffer.from(b));
    for (const b of enc.end()) out.push(Buffer.from(b));
    expect(Buffer.concat(out).toString('latin1')).toBe(
      Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]).toString('base64'),
    );
  });
  it('splits a chunk larger than its Buffer', () => {
    const bytes = Buffer.alloc(1000, 0x5a);
    const enc = new Base64BufferEncoder(64);
    const lengths: number[] = [];
    const out: Buffer[] = [];
    for (const b of [...enc.push(bytes)].concat([...enc.end()])) lengths.push(b.length);
    expect(lengths).toEqual([...Array(20).fill(64), 56]);
    const again = new Base64BufferEncoder(64);
    for (const b of again.push(bytes)) out.push(Buffer.from(b));
    for (const b of again.end()) out.push(Buffer.from(b));
    expect(Buffer.concat(out).toString('latin1')).toBe(bytes.toString('base64'));
  });
  it('shows only its own text or zeros behind its last, partly filled Buffer', () => {
    const enc = new Base64BufferEncoder(65_536);
    const [last, ...none] = [...enc.push(Buffer.alloc(30_000, 1)), ...enc.end()];
    expect(none).toEqual([]);
    expect(last!.toString('latin1')).toBe(Buffer.alloc(30_000, 1).toString('base64'));
    // the whole ArrayBuffer a reader could reach through last.buffer: the text, then zeros, no old memory
    const whole = Buffer.from(last!.buffer, last!.byteOffset, 65_536);
    expect(whole.subarray(40_000).every((b) => b === 0)).toBe(true);
  });
  it('refuses an output size that is not whole base64 quads', () => {
    expect(() => new Base64BufferEncoder(6)).toThrow(/multiple of 4/);
    expect(() => new Base64BufferEncoder(0)).toThrow(/multiple of 4/);
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
