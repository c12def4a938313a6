import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXml, unescapeXml, XmlReadError } from './xml-reader';

const bytes = (s: string) => new TextEncoder().encode(s);
async function* split(b: Uint8Array, cuts: number[]) {
  const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  let prev = 0;
  for (const c of [...at, b.length]) {
    yield b.subarray(prev, c);
    prev = c;
  }
}

const DOC =
  '<?xml version="1.0" encoding="UTF-8"?>\n<root a="1 &gt; 0" b=\'x"y\'>\n  <note>Tom &amp; Jerry &#233;t&#xE9; €</note>\n  <empty/>\n  <data>QUJD</data>\n</root>\n';

describe('readXml', () => {
  it('reads elements, attributes and unescaped text', async () => {
    const root = await readXml(DOC);
    expect(root.name).toBe('root');
    expect(root.attrs).toEqual({ a: '1 > 0', b: 'x"y' });
    expect(root.children.map((c) => c.name)).toEqual(['note', 'empty', 'data']);
    expect(root.children[0]!.text).toBe('Tom & Jerry été €');
  });
  it('gives the same tree however the bytes are split, even inside a UTF-8 character or a tag', async () => {
    const whole = await readXml(DOC);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 20 }), async (cuts) => {
        expect(await readXml(split(bytes(DOC), cuts))).toEqual(whole);
      }),
    );
  });
  it('streams the text of a chosen element instead of keeping it', async () => {
    const got: string[] = [];
    const root = await readXml(split(bytes(DOC), [100, 120, 130]), {
      streamText: (path) => (path.join('/') === 'root/data' ? (p) => got.push(p) : undefined),
    });
    expect(got.join('')).toBe('QUJD');
    expect(root.children[2]!.text).toBe('');
  });
  it('accepts a greater-than sign inside a quoted attribute', async () => {
    expect((await readXml('<a t="x>y"/>')).attrs.t).toBe('x>y');
  });
  it.each([
    ['a comment', '<a><!-- hi --></a>', /comments, CDATA and DOCTYPE/],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY x "y">]><a/>', /comments, CDATA and DOCTYPE/],
    ['a processing instruction', '<a><?pi x?></a>', /XML declaration/],
    ['a mismatched end tag', '<a><b></a></b>', /<\/a> does not close <b>/],
    ['an unclosed element', '<a><b/>', /ends inside <a>/],
    ['text outside the root', '<a/>junk', /text outside the root/],
    ['two roots', '<a/><b/>', /second root/],
    ['a bare ampersand', '<a>x & y</a>', /bare &/],
    ['a duplicated attribute', '<a x="1" x="2"/>', /appears twice/],
    ['a malformed attribute', '<a x=1/>', /malformed attributes/],
  ])('refuses %s', async (_what, doc, error) => {
    await expect(readXml(doc)).rejects.toThrow(error);
  });
  it('refuses bytes that are not UTF-8', async () => {
    await expect(readXml(split(Uint8Array.of(0x3c, 0x61, 0xff, 0x2f, 0x3e), []))).rejects.toThrow(
      XmlReadError,
    );
  });
  it('refuses to keep more text than allowed', async () => {
    await expect(readXml(`<a>${'x'.repeat(2000)}</a>`, { maxKeptChars: 1000 })).rejects.toThrow(
      /more than 1000 characters/,
    );
  });
  it('unescapes character references beyond the basic plane', () => {
    expect(unescapeXml('&#x1F600;')).toBe('😀');
  });
});
