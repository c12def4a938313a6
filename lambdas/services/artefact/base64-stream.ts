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
