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

/** Size of the Buffers a Base64Writer hands out (the last one may be shorter). */
export const BASE64_OUT_CHUNK = 1024 * 1024;
const NONE: Buffer[] = [];

/**
 * Base64 over a stream of chunks, written straight into ~1 MiB Buffers: no string is concatenated and
 * no carry is copied per chunk (profiled: those copies and the per-64-KiB stream writes made package
 * generation 1.6× a raw SHA-256 + base64 pass). Each chunk's whole triples are encoded in one call on
 * the chunk itself; the at most two bytes left over wait in a 3-byte carry. Same text as Base64Encoder.
 */
export class Base64Writer {
  private readonly carry = Buffer.alloc(3);
  private carried = 0;
  private out = Buffer.allocUnsafe(BASE64_OUT_CHUNK);
  private pos = 0;

  private ready: Buffer[] = [];

  /** Encodes `chunk`; returns the Buffers of text that are full (the caller owns them), usually none. */
  push(chunk: Uint8Array): Buffer[] {
    let bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.carried) {
      const need = 3 - this.carried;
      if (bytes.length < need) {
        bytes.copy(this.carry, this.carried);
        this.carried += bytes.length;
        return NONE;
      }
      bytes.copy(this.carry, this.carried, 0, need);
      this.write(this.carry.toString('base64'));
      this.carried = 0;
      bytes = bytes.subarray(need);
    }
    const whole = bytes.length - (bytes.length % 3);
    if (whole < bytes.length) {
      bytes.copy(this.carry, 0, whole);
      this.carried = bytes.length - whole;
    }
    if (whole) this.write(bytes.toString('base64', 0, whole));
    if (!this.ready.length) return NONE;
    const ready = this.ready;
    this.ready = [];
    return ready;
  }

  /** The rest of the text, padding included: the Buffers not yet handed out (none for an empty payload). */
  end(): Buffer[] {
    if (this.carried) this.write(this.carry.toString('base64', 0, this.carried));
    this.carried = 0;
    const rest = this.ready;
    if (this.pos) rest.push(this.out.subarray(0, this.pos));
    this.ready = [];
    this.out = Buffer.alloc(0);
    this.pos = 0;
    return rest;
  }

  /** Appends ASCII text; a buffer that cannot take the next piece is set aside for the caller. */
  private write(text: string): void {
    if (this.pos + text.length > this.out.length) {
      if (this.pos) this.ready.push(this.out.subarray(0, this.pos));
      this.out = Buffer.allocUnsafe(Math.max(BASE64_OUT_CHUNK, text.length));
      this.pos = 0;
    }
    // base64 is ASCII: latin1 is the cheapest exact conversion
    this.pos += this.out.write(text, this.pos, 'latin1');
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
