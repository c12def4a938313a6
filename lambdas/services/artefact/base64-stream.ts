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
 * Encodes chunks to base64 bytes (ASCII) in one Buffer of `size` bytes that it fills, lends and refills.
 * `push` and `end` are generators: each time the Buffer is full they yield it, and they write into it again
 * only when asked for the next value, so a caller that passes each Buffer on before asking for more (a
 * `for…of` loop around a `yield`) never sees it change under a reader. A reader that wants to keep a chunk
 * copies it. No Buffer is allocated per chunk: the output is one Buffer, whatever the payload's size
 * (decision 329). Each chunk's whole triples are encoded straight from the chunk; at most two bytes wait for
 * the next one, in a fixed carry.
 */
export class Base64BufferEncoder {
  private readonly carry = Buffer.alloc(3);
  private carried = 0;
  private readonly out: Buffer;
  private pos = 0;

  constructor(size: number) {
    // whole quads only, so every write of whole triples fits exactly and the Buffer fills to its end
    if (size < 4 || size % 4) throw new Error(`size must be a positive multiple of 4, not ${size}`);
    // zero-filled: the Buffer behind the lent views holds this encoder's text or zeros, never old memory
    this.out = Buffer.alloc(size);
  }

  /** Appends the base64 of `chunk`; yields the Buffer each time it is full. `chunk` may be reused after. */
  *push(chunk: Uint8Array): Generator<Buffer, void, undefined> {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    if (this.carried) {
      while (this.carried < 3 && at < bytes.length) this.carry[this.carried++] = bytes[at++]!;
      if (this.carried < 3) return;
      this.carried = 0;
      yield* this.write(this.carry, 0, 3);
    }
    const whole = bytes.length - ((bytes.length - at) % 3);
    yield* this.write(bytes, at, whole);
    // copied: the caller may reuse its chunk buffer once push is done
    for (let i = whole; i < bytes.length; i++) this.carry[this.carried++] = bytes[i]!;
  }

  /** Encodes the carried bytes with padding and yields what is left in the Buffer (a view of it). */
  *end(): Generator<Buffer, void, undefined> {
    if (this.carried) {
      const last = this.carry.toString('base64', 0, this.carried);
      this.carried = 0;
      // a padded quad fits: the Buffer is never left full (a full one was yielded and emptied)
      this.pos += this.out.write(last, this.pos, 'latin1');
    }
    if (this.pos) yield this.out.subarray(0, this.pos);
    this.pos = 0;
  }

  /** Encodes `bytes[start, end)`, whole triples, in pieces that fill the Buffer to its end. */
  private *write(bytes: Buffer, start: number, end: number): Generator<Buffer, void, undefined> {
    while (start < end) {
      const stop = Math.min(end, start + ((this.out.length - this.pos) / 4) * 3);
      // base64 is ASCII: latin1 is the cheapest exact conversion of the text into the Buffer
      this.pos += this.out.write(bytes.toString('base64', start, stop), this.pos, 'latin1');
      start = stop;
      if (this.pos === this.out.length) {
        yield this.out;
        this.pos = 0;
      }
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
