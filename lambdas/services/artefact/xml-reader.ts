/**
 * A small, strict, streaming reader for the package's own XML: elements, attributes, text and the
 * XML declaration; no DTD, comments, CDATA or processing instructions (the builder writes none, so a file
 * carrying one was not made by it). One element's text (the payload) can be streamed to a callback
 * instead of being kept, so a file of any size is read with flat memory.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** the unescaped text directly inside the element (empty for a streamed element) */
  text: string;
}

export class XmlReadError extends Error {
  override name = 'XmlReadError';
}

export interface ReadXmlOptions {
  /** returns a receiver for the raw text of the element at `path` (root first) to stream it instead of keeping it */
  streamText?: (path: readonly string[]) => ((rawPiece: string) => void) | undefined;
  /** most characters of text and tags kept in memory in all; beyond it the file is refused */
  maxKeptChars?: number;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ATTR = /\s*([A-Za-z_][A-Za-z0-9_.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));|&/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Replaces the five predefined entities and character references; a bare `&` is an error. */
export function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (m, named?: string, dec?: string, hex?: string) => {
    if (named) return NAMED[named]!;
    if (dec || hex) {
      const cp = Number.parseInt((dec ?? hex)!, dec ? 10 : 16);
      if (cp > 0x10ffff) throw new XmlReadError(`character reference ${m} is out of range`);
      return String.fromCodePoint(cp);
    }
    throw new XmlReadError('a bare & must be written &amp;');
  });
}

function parseAttributes(s: string, tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let pos = 0;
  while (pos < s.length) {
    if (/^\s*$/.test(s.slice(pos))) break;
    ATTR.lastIndex = pos;
    const m = ATTR.exec(s);
    if (!m) throw new XmlReadError(`malformed attributes in <${tag}>: ${s.slice(pos, pos + 40)}`);
    const name = m[1]!;
    if (Object.hasOwn(attrs, name)) throw new XmlReadError(`attribute ${name} appears twice in <${tag}>`);
    attrs[name] = unescapeXml(m[2] ?? m[3] ?? '');
    pos = ATTR.lastIndex;
  }
  return attrs;
}

/** Index of the `>` closing the tag that starts at `from`, skipping quoted attribute values; -1 if not yet read. */
function tagEnd(buf: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < buf.length; i++) {
    const c = buf[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** Reads an XML document from a byte stream and returns its root element. */
export async function readXml(
  source: AsyncIterable<Uint8Array> | string,
  options: ReadXmlOptions = {},
): Promise<XmlElement> {
  const maxKept = options.maxKeptChars ?? 32 * 1024 * 1024;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stack: XmlElement[] = [];
  const raw: string[][] = [];
  let root: XmlElement | undefined;
  let sink: ((piece: string) => void) | undefined;
  let kept = 0;
  let started = false;
  let buf = '';

  const keep = (n: number) => {
    kept += n;
    if (kept > maxKept)
      throw new XmlReadError(`more than ${maxKept} characters outside the streamed element`);
  };

  const text = (t: string) => {
    if (!t) return;
    if (!stack.length) {
      if (/\S/.test(t)) throw new XmlReadError(`text outside the root element: ${t.trim().slice(0, 40)}`);
      return;
    }
    if (sink) sink(t);
    else {
      keep(t.length);
      raw[raw.length - 1]!.push(t);
    }
  };

  const tag = (body: string) => {
    if (body.startsWith('?')) {
      if (started || !/^\?xml\s[^?]*\?$/.test(body))
        throw new XmlReadError('only the XML declaration may appear, and only first');
      started = true;
      return;
    }
    started = true;
    if (body.startsWith('!'))
      throw new XmlReadError('comments, CDATA and DOCTYPE are not part of a package file');
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      const open = stack.pop();
      const parts = raw.pop();
      if (!open || open.name !== name)
        throw new XmlReadError(`</${name}> does not close <${open?.name ?? 'nothing'}>`);
      if (!sink) open.text = unescapeXml(parts!.join(''));
      sink = undefined;
      return;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const m = /^([^\s/>]+)([\s\S]*)$/.exec(inner);
    if (!m || !NAME.test(m[1]!)) throw new XmlReadError(`malformed tag <${body.slice(0, 40)}>`);
    if (sink) throw new XmlReadError(`<${m[1]}> inside a streamed element`);
    keep(body.length);
    const el: XmlElement = { name: m[1]!, attrs: parseAttributes(m[2]!, m[1]!), children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (root) throw new XmlReadError(`a second root element <${el.name}>`);
    else root = el;
    if (selfClosing) return;
    stack.push(el);
    raw.push([]);
    sink = options.streamText?.(stack.map((e) => e.name));
  };

  const consume = () => {
    let pos = 0;
    for (;;) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        // kept text is unescaped only when its element closes, so an entity split across chunks is fine
        text(buf.slice(pos));
        pos = buf.length;
        break;
      }
      text(buf.slice(pos, lt));
      const gt = tagEnd(buf, lt);
      if (gt < 0) {
        pos = lt;
        break;
      }
      tag(buf.slice(lt + 1, gt));
      pos = gt + 1;
    }
    buf = buf.slice(pos);
    if (buf.length > 1024 * 1024) throw new XmlReadError('a tag longer than 1 MB');
  };

  if (typeof source === 'string') {
    buf = source;
    consume();
  } else {
    for await (const chunk of source) {
      if (!(chunk instanceof Uint8Array)) throw new XmlReadError('expected a stream of bytes');
      try {
        buf += decoder.decode(chunk, { stream: true });
      } catch {
        throw new XmlReadError('the file is not valid UTF-8');
      }
      consume();
    }
    buf += decoder.decode();
    consume();
  }
  if (buf.length) throw new XmlReadError('the file ends inside a tag');
  if (stack.length) throw new XmlReadError(`the file ends inside <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new XmlReadError('the file holds no element');
  return root;
}
