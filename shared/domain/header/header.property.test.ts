import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PACKAGE_TYPES } from '../model/package';
import { decodeHeader, encodedLength, encodeHeader, HeaderFormatError, headerLayout } from './header-codec';
import { type ComputeContext, computeFields, newPackageHeader, validateHeaderUpdate } from './header-rules';
import { type EntryField, type Header, headerSchema, UINT_MAX } from './header-schema';
import { headerTemplate } from './header-template';

/** Property tests of the header codec and edit rules (fast-check): round trip, ranges, CRC. */

const template = headerTemplate();

/** Any value a template entry field accepts. */
function entryValue(t: EntryField): fc.Arbitrary<number> {
  if (t.type === 'enum') return fc.constantFrom(...t.options.map((o) => o.value));
  return fc.integer({ min: 0, max: UINT_MAX[t.type] });
}

function entry(template: EntryField[]): fc.Arbitrary<Record<string, number>> {
  return fc.record(Object.fromEntries(template.map((t) => [t.name, entryValue(t)])));
}

/** Values for every editable field of the template: the edits a user could make. */
const edits: fc.Arbitrary<Map<string, unknown>> = fc
  .tuple(
    ...template.fields.map((f): fc.Arbitrary<[string, unknown] | null> => {
      switch (f.type) {
        case 'uint8':
        case 'uint16':
        case 'uint32':
        case 'enum':
          return entryValue(f).map((v) => [f.name, v]);
        case 'group':
          return entry(f.template).map((v) => [f.name, v]);
        case 'list':
          return fc.array(entry(f.template), { maxLength: f.maxEntries }).map((v) => [f.name, v]);
        default:
          return fc.constant(null);
      }
    }),
  )
  .map((pairs) => new Map(pairs.filter((p): p is [string, unknown] => p !== null)));

const context: fc.Arbitrary<ComputeContext> = fc.record({
  packageType: fc.constantFrom(...PACKAGE_TYPES),
  resourceSizeBytes: fc.integer({ min: 0, max: UINT_MAX.uint32 }),
  metadataSizeBytes: fc.integer({ min: 0, max: UINT_MAX.uint32 }),
});

/** A valid header built directly from edits (not through the validator), then computed. */
const validHeader: fc.Arbitrary<Header> = fc.tuple(edits, context).map(([e, ctx]) => {
  const h = headerTemplate();
  for (const f of h.fields)
    if (e.has(f.name)) (f as { value: unknown }).value = structuredClone(e.get(f.name));
  return computeFields(h, ctx);
});

describe('header properties', () => {
  it('decodes every encoded valid header to the same header', () => {
    fc.assert(
      fc.property(validHeader, (h) => {
        expect(headerSchema.safeParse(h).success).toBe(true);
        const bytes = encodeHeader(h);
        expect(bytes.length).toBe(encodedLength(h));
        expect(decodeHeader(bytes)).toEqual(h);
      }),
      { numRuns: 300 },
    );
  });

  it('lays out the fields contiguously, without gaps or overlaps', () => {
    fc.assert(
      fc.property(validHeader, (h) => {
        let next = 0;
        for (const l of headerLayout(h)) {
          expect(l.offset).toBe(next);
          next += l.width;
        }
        expect(next).toBe(encodeHeader(h).length);
      }),
    );
  });

  it('detects any change of a single byte through the CRC', () => {
    fc.assert(
      fc.property(validHeader, fc.nat(), fc.integer({ min: 1, max: 255 }), (h, pos, delta) => {
        const bytes = encodeHeader(h);
        const i = pos % bytes.length;
        bytes[i] = bytes[i]! ^ delta;
        let error: unknown;
        try {
          decodeHeader(bytes);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(HeaderFormatError);
        expect((error as HeaderFormatError).problems[0]?.field).toBe('Header CRC');
      }),
      { numRuns: 500 },
    );
  });

  it('accepts any in-range edit and gives the header the edits describe', () => {
    fc.assert(
      fc.property(edits, context, (e, ctx) => {
        const submitted = { fields: [...e].map(([name, value]) => ({ name, value })) };
        const r = validateHeaderUpdate(newPackageHeader(ctx), submitted);
        expect(r.ok).toBe(true);
        const direct = headerTemplate();
        for (const f of direct.fields) if (e.has(f.name)) (f as { value: unknown }).value = e.get(f.name);
        if (r.ok) expect(r.header).toEqual(computeFields(direct, ctx));
      }),
      { numRuns: 200 },
    );
  });

  const scalarFields = template.fields.filter(
    (f) => f.type === 'uint32' || f.type === 'uint16' || f.type === 'uint8',
  );
  const groupMembers = template.fields.flatMap((f) =>
    f.type === 'group' ? f.template.map((t) => ({ group: f.name, member: t })) : [],
  );

  it('refuses any integer outside the range of its type, naming the field', () => {
    const outOfRange = (max: number) =>
      fc.oneof(
        fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
        fc.double({ min: 0, max, noNaN: true }).filter((d) => !Number.isInteger(d)),
      );
    fc.assert(
      fc.property(
        fc
          .constantFrom(...scalarFields)
          .chain((f) => fc.tuple(fc.constant(f), outOfRange(UINT_MAX[f.type as 'uint32']))),
        ([f, v]) => {
          const r = validateHeaderUpdate(
            newPackageHeader({ packageType: 'DEV_UNSIGNED', resourceSizeBytes: 1 }),
            {
              fields: [{ name: f.name, value: v }],
            },
          );
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual([f.name]);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc
          .constantFrom(...groupMembers)
          .chain((g) =>
            fc.tuple(
              fc.constant(g),
              fc.integer({ min: UINT_MAX[g.member.type as 'uint16'] + 1, max: 2 ** 40 }),
            ),
          ),
        ([g, v]) => {
          const r = validateHeaderUpdate(
            newPackageHeader({ packageType: 'DEV_UNSIGNED', resourceSizeBytes: 1 }),
            {
              fields: [{ name: g.group, value: { [g.member.name]: v } }],
            },
          );
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual([`${g.group}.${g.member.name}`]);
        },
      ),
    );
  });

  it('refuses any enum value that is not an option, in fields and list entries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Patch Id', 'Update Operation Type', 'Patch Criteria Items'),
        fc.integer({ min: 0, max: 100_000 }),
        (name, v) => {
          const f = template.fields.find((x) => x.name === name)!;
          const options =
            f.type === 'enum'
              ? f.options
              : f.type === 'list'
                ? (f.template[3] as { options: { value: number }[] }).options
                : [];
          fc.pre(!options.some((o) => o.value === v));
          const value = f.type === 'list' ? [{ Address: 0, Mask: 0, Value: 0, Operator: v }] : v;
          const r = validateHeaderUpdate(
            newPackageHeader({ packageType: 'DEV_SIGNED', resourceSizeBytes: 1 }),
            {
              fields: [{ name, value }],
            },
          );
          expect(r.ok).toBe(false);
        },
      ),
    );
  });

  it('never lets a submission change a fixed field', () => {
    const fixed = template.fields.filter((f) => f.type === 'fixed').map((f) => f.name);
    fc.assert(
      fc.property(fc.subarray(fixed, { minLength: 1 }), fc.anything(), (names, junk) => {
        const current = newPackageHeader({ packageType: 'RELEASE_SIGNED', resourceSizeBytes: 77 });
        const r = validateHeaderUpdate(current, {
          fields: names.map((name) => ({ name, value: junk ?? 0 })),
        });
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.header).toEqual(current);
      }),
    );
  });
});
