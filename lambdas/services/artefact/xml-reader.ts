import { SaxesParser } from 'saxes';

/**
 * Reads the package's XML with saxes (a maintained, conformant, streaming XML parser): elements,
 * attributes, text and the XML declaration. A DOCTYPE (so any DTD or entity declaration), comments, CDATA
 * sections and processing instructions are refused: the builder writes none, so a file carrying one was
 * not made by it. One element's text (the payload) can be streamed to a callback instead of being kept,
 * so a file of any size is read with flat memory: that element's text goes to the callback, raw (a `&`
 * reaches it as is), and not through saxes, so the callback must check every character itself (the
 * payload's is a strict base64 decoder, which refuses anything outside the base64 alphabet).
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
  /** receives the file's text as written, piece by piece, except the text of streamed elements */
  rawText?: (piece: string) => void;
}

/** Pieces of `s` cut before each `<` and after each `>`: text between tags arrives as pieces of its own. */
const pieces = (s: string): string[] => s.split(/(?=<)|(?<=>)/);

/** Reads an XML document from a byte stream (or a string) and returns its root element. */
export async function readXml(
  source: AsyncIterable<Uint8Array> | string,
  options: ReadXmlOptions = {},
): Promise<XmlElement> {
  const maxKept = options.maxKeptChars ?? 32 * 1024 * 1024;
  const parser = new SaxesParser({ xmlns: false });
  const stack: { el: XmlElement; text: string[] }[] = [];
  let root: XmlElement | undefined;
  let sink: ((piece: string) => void) | undefined;
  let kept = 0;

  const keep = (n: number) => {
    kept += n;
    if (kept > maxKept)
      throw new XmlReadError(`more than ${maxKept} characters outside the streamed element`);
  };
  const onText = (t: string) => {
    const top = stack[stack.length - 1];
    if (!top) return; // whitespace outside the root (saxes refuses anything else there)
    keep(t.length);
    top.text.push(t);
  };

  parser.on('error', (e) => {
    throw new XmlReadError(e.message.replace(/^undefined:/, 'line '));
  });
  parser.on('doctype', () => {
    throw new XmlReadError('a DOCTYPE (DTD, entity declarations) is not part of a package file');
  });
  parser.on('comment', () => {
    throw new XmlReadError('comments are not part of a package file');
  });
  parser.on('cdata', () => {
    throw new XmlReadError('CDATA sections are not part of a package file');
  });
  parser.on('processinginstruction', (pi) => {
    throw new XmlReadError(`processing instructions are not part of a package file (<?${pi.target}?>)`);
  });
  parser.on('text', onText);
  parser.on('opentag', (tag) => {
    if (sink) throw new XmlReadError(`<${tag.name}> inside a streamed element`);
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes as Record<string, string>)) {
      keep(k.length + v.length);
      attrs[k] = v;
    }
    keep(tag.name.length);
    const el: XmlElement = { name: tag.name, attrs, children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.el.children.push(el);
    else root = el;
    stack.push({ el, text: [] });
    if (tag.isSelfClosing) return;
    sink = options.streamText?.(stack.map((s) => s.el.name));
  });
  parser.on('closetag', () => {
    const top = stack.pop()!;
    if (sink) sink = undefined;
    else top.el.text = top.text.join('');
  });

  // A tag cut by a chunk boundary waits for its end: otherwise the rest of a closing tag (`ayload>`) would
  // arrive as text of the streamed element. Bounded, so text that never closes a tag cannot pile up here.
  let held = '';
  const write = (chunk: string, last = false) => {
    let s = held + chunk;
    held = '';
    const lt = s.lastIndexOf('<');
    if (!last && lt >= 0 && s.indexOf('>', lt) < 0 && s.length - lt <= 4096) {
      held = s.slice(lt);
      s = s.slice(0, lt);
    }
    for (const piece of pieces(s)) {
      if (!piece) continue;
      // inside the streamed element a piece that is not a tag is its text: it goes to the receiver only
      if (sink && !piece.startsWith('<')) sink(piece);
      else {
        options.rawText?.(piece);
        parser.write(piece);
      }
    }
  };

  if (typeof source === 'string') write(source, true);
  else {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for await (const chunk of source) {
      if (!(chunk instanceof Uint8Array)) throw new XmlReadError('expected a stream of bytes');
      let s: string;
      try {
        s = decoder.decode(chunk, { stream: true });
      } catch {
        throw new XmlReadError('the file is not valid UTF-8');
      }
      write(s);
    }
    try {
      write(decoder.decode(), true);
    } catch (e) {
      if (e instanceof XmlReadError) throw e;
      throw new XmlReadError('the file is not valid UTF-8');
    }
  }
  parser.close();
  if (!root) throw new XmlReadError('the file holds no element');
  return root;
}
