/**
 * Base64 over a stream of chunks, for payloads too large to hold twice. The encoder carries at most two
 * bytes between chunks and the decoder at most three characters, so memory stays flat.
 */

/** Encodes chunks to base64 text without line breaks; `end()` adds the padding. */
export class Base64Encoder {
  private carry = Buffer.alloc(0);

  push(chunk: Uint8Array): string {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let head = '';
    if (this.carry.length) {
      const need = 3 - this.carry.length;
      if (bytes.length < need) {
        this.carry = Buffer.concat([this.carry, bytes]);
        return '';
      }
      head = Buffer.concat([this.carry, bytes.subarray(0, need)]).toString('base64');
      bytes = bytes.subarray(need);
    }
    const whole = bytes.length - (bytes.length % 3);
    // copied: the caller may reuse its chunk buffer once push returns
    this.carry = Buffer.from(bytes.subarray(whole));
    return head + bytes.subarray(0, whole).toString('base64');
  }

  end(): string {
    const s = this.carry.toString('base64');
    this.carry = Buffer.alloc(0);
    return s;
  }
}

/**
 * Encodes chunks to base64 bytes (ASCII) gathered in Buffers of `size` bytes, for a stream of bytes out.
 * Each chunk's whole triples are encoded straight from the chunk (no copy, no string concatenation) and
 * written into the current output Buffer; at most two bytes wait for the next chunk. `push` and `end`
 * return the Buffers that are complete, each a fresh allocation the caller owns (never reused or written
 * again), so a reader may keep them. Fewer, larger Buffers than one per chunk: each one passed on costs a
 * stream hop and an ArrayBuffer (decision 176).
 */
export class Base64ChunkEncoder {
  private readonly carry = Buffer.alloc(3);
  private carried = 0;
  private out: Buffer | undefined;
  private pos = 0;

  constructor(private readonly size: number) {
    // whole quads only, so a Buffer never ends in the middle of one (simpler to reason about, not needed)
    if (size < 4 || size % 4) throw new Error(`size must be a positive multiple of 4, not ${size}`);
  }

  push(chunk: Uint8Array): Buffer[] {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const done: Buffer[] = [];
    let at = 0;
    if (this.carried) {
      while (this.carried < 3 && at < bytes.length) this.carry[this.carried++] = bytes[at++]!;
      if (this.carried < 3) return done;
      this.write(this.carry.toString('base64'), done);
      this.carried = 0;
    }
    const whole = at + (bytes.length - at - ((bytes.length - at) % 3));
    // a large chunk goes in pieces that fit an output Buffer: memory stays `size`, whatever the caller's chunks
    const step = (this.size / 4) * 3;
    while (at < whole) {
      const room = ((this.size - this.pos) / 4) * 3;
      const end = Math.min(whole, at + Math.min(step, room));
      this.write(bytes.toString('base64', at, end), done);
      at = end;
    }
    // copied: the caller may reuse its chunk buffer once push returns
    while (at < bytes.length) this.carry[this.carried++] = bytes[at++]!;
    return done;
  }

  end(): Buffer[] {
    const done: Buffer[] = [];
    if (this.carried) this.write(this.carry.toString('base64', 0, this.carried), done);
    this.carried = 0;
    // copied to its size: the rest of the output Buffer was never written (allocUnsafeSlow), and a reader
    // that looks at the whole ArrayBuffer behind a Buffer must not see old memory
    if (this.out && this.pos) done.push(Buffer.from(this.out.subarray(0, this.pos)));
    this.out = undefined;
    this.pos = 0;
    return done;
  }

  /** `text` is whole quads and never longer than the room left in the current Buffer */
  private write(text: string, done: Buffer[]): void {
    if (!this.out) this.out = Buffer.allocUnsafeSlow(this.size);
    // base64 is ASCII: latin1 is the cheapest exact conversion
    this.pos += this.out.write(text, this.pos, 'latin1');
    if (this.pos === this.size) {
      done.push(this.out);
      this.out = undefined;
      this.pos = 0;
    }
  }
}

/** Thrown when text is not canonical base64. */
export class Base64Error extends Error {
  override name = 'Base64Error';
}

const ALPHABET = /^[A-Za-z0-9+/=]*$/;

/**
 * Decodes base64 text arriving in pieces. Only the canonical form is accepted: the base64 alphabet, `=`
 * padding at the end and nothing else, not even a line break or a space (the package format forbids them:
 * a shell recipe that hashes the text as written would otherwise compute a different digest).
 */
export class Base64Decoder {
  private carry = '';
  private padded = false;

  push(piece: string): Buffer {
    const clean = piece;
    if (/\s/.test(clean)) throw new Base64Error('contains a line break or other white space');
    if (!ALPHABET.test(clean)) throw new Base64Error('contains characters that are not base64');
    const s = this.carry + clean;
    if (this.padded && /[^=]/.test(clean)) throw new Base64Error('continues after its padding');
    const eq = s.indexOf('=');
    let cut: number;
    if (eq >= 0) {
      if (/[^=]/.test(s.slice(eq))) throw new Base64Error('continues after its padding');
      this.padded = true;
      cut = Math.floor(eq / 4) * 4;
    } else cut = s.length - (s.length % 4);
    this.carry = s.slice(cut);
    return Buffer.from(s.slice(0, cut), 'base64');
  }

  end(): Buffer {
    const last = this.carry;
    this.carry = '';
    if (!last) return Buffer.alloc(0);
    if (!/^[A-Za-z0-9+/]{2}==$|^[A-Za-z0-9+/]{3}=$/.test(last)) throw new Base64Error('is truncated');
    const bytes = Buffer.from(last, 'base64');
    // unused low bits must be zero, or two texts would decode to the same bytes
    if (bytes.toString('base64') !== last) throw new Base64Error('has non-zero padding bits');
    return bytes;
  }
}

/** Decodes a complete base64 text strictly. */
export function decodeBase64(text: string): Buffer {
  const d = new Base64Decoder();
  const body = d.push(text);
  const tail = d.end();
  return tail.length ? Buffer.concat([body, tail]) : body;
}
