import { describe, expect, it } from 'vitest';
import type { Header, HeaderField } from './header/header-schema';
import { headerTemplate, OPERATOR_OPTIONS, PATCH_ID_OPTIONS } from './header/header-template';
import {
  approvalTime,
  approvedForKey,
  type ComparedPackage,
  compareBuild,
  compareDcc,
  compareFiles,
  compareHeaders,
  isApproved,
  packageChanges,
} from './package-changes';

/** A header with one field of every type (header-schema.ts), values given per field name. */
function everyType(v: Partial<Record<string, unknown>> = {}): Header {
  const fields: HeaderField[] = [
    { name: 'Small', type: 'uint8', value: (v.Small as number) ?? 1 },
    { name: 'Medium', type: 'uint16', value: (v.Medium as number) ?? 2 },
    { name: 'Large', type: 'uint32', value: (v.Large as number) ?? 3 },
    {
      name: 'Operator',
      type: 'enum',
      storage: 'uint8',
      options: OPERATOR_OPTIONS,
      value: (v.Operator as number) ?? 0,
    },
    {
      name: 'Patch Id',
      type: 'enum',
      storage: 'mask64',
      options: PATCH_ID_OPTIONS,
      value: (v['Patch Id'] as number) ?? 0,
    },
    { name: 'Magic', type: 'fixed', storage: 'uint32', width: 4, value: (v.Magic as number) ?? 0x4b505746 },
    { name: 'Reserved', type: 'fixed', storage: 'bytes', width: 2, value: (v.Reserved as string) ?? '0000' },
    {
      name: 'Size',
      type: 'fixed',
      storage: 'uint32',
      width: 4,
      computed: 'patchDataSize',
      value: (v.Size as number) ?? 10,
    },
    {
      name: 'Model',
      type: 'group',
      template: [
        { name: 'Model Id', type: 'uint16', value: 0 },
        { name: 'Serial', type: 'uint32', value: 0 },
      ],
      value: (v.Model as Record<string, number>) ?? { 'Model Id': 1, Serial: 2 },
    },
    {
      name: 'Criteria',
      type: 'list',
      maxEntries: 4,
      template: [
        { name: 'Address', type: 'uint32', value: 0 },
        { name: 'Operator', type: 'enum', storage: 'uint8', options: OPERATOR_OPTIONS, value: 0 },
      ],
      value: (v.Criteria as Record<string, number>[]) ?? [{ Address: 0x100, Operator: 0 }],
    },
  ];
  return { fields };
}

const pkg = (over: Partial<ComparedPackage> = {}): ComparedPackage => ({
  id: 'p-new',
  name: 'fw 1.1',
  type: 'RELEASE_SIGNED',
  status: 'PENDING_APPROVAL',
  resourceType: 'PATCH',
  resourceName: 'fw.bin',
  dccId: 'dcc-1',
  dcc: { deviceId: 'DEV-7', telemetryType: 'TelA', messageLimit: 64, deviceLimit: 128 },
  resourceFile: { fileName: 'fw.bin', sizeBytes: 1000, sha256: 'a'.repeat(64) },
  header: everyType(),
  approvers: {},
  ...over,
});

describe('compareHeaders', () => {
  it('finds nothing between equal headers', () => {
    expect(compareHeaders(everyType(), everyType())).toEqual({ header: [], lists: [], compared: true });
  });

  it('shows uint8, uint16 and uint32 changes old → new in decimal and hex of their width', () => {
    const { header } = compareHeaders(everyType(), everyType({ Small: 255, Medium: 0x1234, Large: 65536 }));
    expect(header).toEqual([
      {
        path: 'Small',
        type: 'uint8',
        old: { decimal: '1', hex: '0x01' },
        new: { decimal: '255', hex: '0xFF' },
      },
      {
        path: 'Medium',
        type: 'uint16',
        old: { decimal: '2', hex: '0x0002' },
        new: { decimal: '4660', hex: '0x1234' },
      },
      {
        path: 'Large',
        type: 'uint32',
        old: { decimal: '3', hex: '0x00000003' },
        new: { decimal: '65536', hex: '0x00010000' },
      },
    ]);
  });

  it('shows an enum with its option label, a 64-bit mask as the mask', () => {
    const { header } = compareHeaders(everyType(), everyType({ Operator: 3, 'Patch Id': 4 }));
    expect(header).toEqual([
      {
        path: 'Operator',
        type: 'enum',
        old: { decimal: '0', hex: '0x00', label: 'EQUAL' },
        new: { decimal: '3', hex: '0x03', label: 'MORE' },
      },
      {
        path: 'Patch Id',
        type: 'enum',
        old: { decimal: '1', hex: '0x0000000000000001', label: 'Patch 1' },
        new: { decimal: '16', hex: '0x0000000000000010', label: 'Patch 5' },
      },
    ]);
  });

  it('shows fixed integers, fixed bytes and marks computed fields', () => {
    const { header } = compareHeaders(everyType(), everyType({ Magic: 1, Reserved: 'ff01', Size: 20 }));
    expect(header).toEqual([
      {
        path: 'Magic',
        type: 'fixed uint32',
        old: { decimal: '1263556422', hex: '0x4B505746' },
        new: { decimal: '1', hex: '0x00000001' },
      },
      {
        path: 'Reserved',
        type: 'fixed bytes',
        old: { decimal: '', hex: '0x0000' },
        new: { decimal: '', hex: '0xFF01' },
      },
      {
        path: 'Size',
        type: 'fixed uint32',
        computed: true,
        old: { decimal: '10', hex: '0x0000000A' },
        new: { decimal: '20', hex: '0x00000014' },
      },
    ]);
  });

  it('shows a group member by member', () => {
    const { header } = compareHeaders(everyType(), everyType({ Model: { 'Model Id': 1, Serial: 0xbeef } }));
    expect(header).toEqual([
      {
        path: 'Model.Serial',
        type: 'uint32',
        old: { decimal: '2', hex: '0x00000002' },
        new: { decimal: '48879', hex: '0x0000BEEF' },
      },
    ]);
  });

  it('lists criteria entries added, removed and changed', () => {
    const two = [
      { Address: 0x100, Operator: 0 },
      { Address: 0x200, Operator: 1 },
    ];
    const added = compareHeaders(everyType(), everyType({ Criteria: two })).lists;
    expect(added).toEqual([
      {
        field: 'Criteria',
        oldCount: 1,
        newCount: 2,
        added: [
          {
            index: 1,
            values: [
              { name: 'Address', cells: { decimal: '512', hex: '0x00000200' } },
              { name: 'Operator', cells: { decimal: '1', hex: '0x01', label: 'NOT_EQUAL' } },
            ],
          },
        ],
        removed: [],
        changed: [],
      },
    ]);
    const removed = compareHeaders(everyType({ Criteria: two }), everyType({ Criteria: [] })).lists[0];
    expect(removed?.removed.map((e) => e.index)).toEqual([0, 1]);
    expect(removed?.added).toEqual([]);
    const changed = compareHeaders(everyType(), everyType({ Criteria: [{ Address: 0x100, Operator: 5 }] }))
      .lists[0];
    expect(changed?.changed).toEqual([
      {
        index: 0,
        changes: [
          {
            path: 'Criteria[0].Operator',
            type: 'enum',
            old: { decimal: '0', hex: '0x00', label: 'EQUAL' },
            new: { decimal: '5', hex: '0x05', label: 'MORE_AND_EQUAL' },
          },
        ],
      },
    ]);
  });

  it('shows a field only one header has as added or removed', () => {
    const without = { fields: everyType().fields.filter((f) => f.name !== 'Small') };
    expect(compareHeaders(without, everyType()).header).toEqual([
      { path: 'Small', type: 'uint8', old: null, new: { decimal: '1', hex: '0x01' } },
    ]);
    expect(compareHeaders(everyType(), without).header).toEqual([
      { path: 'Small', type: 'uint8', old: { decimal: '1', hex: '0x01' }, new: null },
    ]);
  });

  it('compares the real template: one edited criterion and a field', () => {
    const a = headerTemplate();
    const b = headerTemplate();
    const list = b.fields.find((f) => f.name === 'Patch Criteria Items');
    if (list?.type !== 'list') throw new Error('template changed');
    list.value = [{ Address: 0x2000, Mask: 0xffffffff, Value: 7, Operator: 0 }];
    const pid = b.fields.find((f) => f.name === 'Package Id');
    if (pid?.type !== 'uint32') throw new Error('template changed');
    pid.value = 42;
    const c = compareHeaders(a, b);
    expect(c.header.map((h) => h.path)).toEqual(['Package Id']);
    expect(c.lists.map((l) => [l.field, l.added.length])).toEqual([['Patch Criteria Items', 1]]);
  });

  it('does not compare what is not a header document', () => {
    expect(compareHeaders(null, everyType())).toEqual({ header: [], lists: [], compared: false });
  });
});

describe('compareFiles', () => {
  const f = (sha: string, size: number, meta?: [string, number]) => ({
    fileName: 'm.bin',
    sizeBytes: size,
    sha256: sha,
    ...(meta ? { metadataSha256: meta[0], metadataSizeBytes: meta[1] } : {}),
  });

  it('lists payload and metadata digests and sizes, saying which are the same', () => {
    const out = compareFiles(f('a', 10, ['m1', 5]), f('b', 10, ['m1', 6]));
    expect(out).toEqual([
      {
        file: 'payload',
        old: { fileName: 'm.bin', sizeBytes: 10, sha256: 'a' },
        new: { fileName: 'm.bin', sizeBytes: 10, sha256: 'b' },
        sameDigest: false,
        sameSize: true,
      },
      {
        file: 'metadata',
        old: { sizeBytes: 5, sha256: 'm1' },
        new: { sizeBytes: 6, sha256: 'm1' },
        sameDigest: true,
        sameSize: false,
      },
    ]);
  });

  it('has no metadata row for patches, and an empty side for a package without a recorded file', () => {
    expect(compareFiles(f('a', 1), f('a', 1)).map((x) => [x.file, x.sameDigest, x.sameSize])).toEqual([
      ['payload', true, true],
    ]);
    expect(compareFiles(undefined, f('a', 1))[0]).toMatchObject({ old: null, sameDigest: false });
  });
});

describe('build provenance and SBOM', () => {
  const prov = (commit: string, builder = 'runner-1') => ({
    repository: 'https://git.example.com/fw',
    commit,
    buildId: '812',
    buildUrl: 'https://ci.example.com/812',
    builder,
    sha256: 'p'.repeat(64),
  });
  const sbom = (sha: string, count: number, specVersion = '1.5') => ({
    format: 'CycloneDX' as const,
    specVersion,
    componentCount: count,
    topComponents: [],
    fileName: 'bom.json',
    sizeBytes: 100 + count,
    sha256: sha,
  });
  const file = (extra = {}) => ({ fileName: 'fw.bin', sizeBytes: 10, sha256: 'a', ...extra });

  it('lists the SBOM digest beside the payload, saying whether it is the same file', () => {
    const same = compareFiles(file({ sbom: sbom('s1', 3) }), file({ sbom: sbom('s1', 3) }));
    expect(same.map((f) => [f.file, f.sameDigest, f.sameSize])).toEqual([
      ['payload', true, true],
      ['sbom', true, true],
    ]);
    const added = compareFiles(file(), file({ sbom: sbom('s1', 3) }));
    expect(added[1]).toEqual({
      file: 'sbom',
      old: null,
      new: { fileName: 'bom.json', sizeBytes: 103, sha256: 's1' },
      sameDigest: false,
      sameSize: false,
    });
    expect(compareFiles(file(), file()).map((f) => f.file)).toEqual(['payload']);
  });

  it('lists the commit, builder, SBOM format and component count that differ', () => {
    expect(
      compareBuild(
        file({ provenance: prov('abc1234'), sbom: sbom('s', 3) }),
        file({ provenance: prov('abc1234'), sbom: sbom('t', 3) }),
      ),
    ).toEqual([]);
    expect(
      compareBuild(
        file({ provenance: prov('abc1234'), sbom: sbom('s', 3) }),
        file({ provenance: prov('def5678', 'runner-2'), sbom: sbom('t', 5, '1.6') }),
      ),
    ).toEqual([
      { field: 'commit', old: 'abc1234', new: 'def5678' },
      { field: 'builder', old: 'runner-1', new: 'runner-2' },
      { field: 'sbomFormat', old: 'CycloneDX 1.5', new: 'CycloneDX 1.6' },
      { field: 'sbomComponents', old: 3, new: 5 },
    ]);
  });

  it('shows a side without provenance or SBOM as null', () => {
    expect(compareBuild(file(), file({ provenance: prov('abc1234'), sbom: sbom('s', 2) }))).toEqual([
      { field: 'repository', old: null, new: 'https://git.example.com/fw' },
      { field: 'commit', old: null, new: 'abc1234' },
      { field: 'buildId', old: null, new: '812' },
      { field: 'builder', old: null, new: 'runner-1' },
      { field: 'sbomFormat', old: null, new: 'CycloneDX 1.5' },
      { field: 'sbomComponents', old: null, new: 2 },
    ]);
    expect(compareBuild(undefined, undefined)).toEqual([]);
  });
});

describe('compareDcc', () => {
  it('lists the DCC values that differ, and another DCC row', () => {
    const o = {
      dccId: 'd1',
      dcc: { deviceId: 'X', telemetryType: 'TelA' as const, messageLimit: 16, deviceLimit: 32 },
    };
    expect(compareDcc(o, o)).toEqual([]);
    expect(compareDcc(o, { dccId: 'd2', dcc: { ...o.dcc, telemetryType: 'BLE', deviceLimit: 64 } })).toEqual([
      { field: 'dccId', old: 'd1', new: 'd2' },
      { field: 'telemetryType', old: 'TelA', new: 'BLE' },
      { field: 'deviceLimit', old: 32, new: 64 },
    ]);
  });
});

describe('approval', () => {
  it('counts APPROVED and the later states of the approved path, not REJECTED or a round', () => {
    expect(
      ['APPROVED', 'SIGNED', 'DELIVERY_PENDING', 'DELIVERED', 'DELIVERY_REJECTED'].every((s) =>
        isApproved(s as never),
      ),
    ).toBe(true);
    for (const s of ['DRAFT', 'PENDING_APPROVAL', 'AWAITING_SIGNATURE', 'GENERATING', 'REJECTED'] as const)
      expect(isApproved(s), s).toBe(false);
  });

  it('dates the approval by the last approval vote', () => {
    const approvers = {
      a: { approved: true, decidedAt: '2026-01-02T00:00:00.000Z' },
      b: { approved: true, decidedAt: '2026-01-03T00:00:00.000Z' },
    };
    expect(approvalTime({ status: 'SIGNED', approvers })).toBe('2026-01-03T00:00:00.000Z');
    expect(approvalTime({ status: 'REJECTED', approvers })).toBeUndefined();
  });

  it('keys the index by resource type, then device id (any characters)', () => {
    expect(approvedForKey(pkg({ dcc: { ...pkg().dcc!, deviceId: 'a#b' } }))).toBe('PATCH#a#b');
    expect(approvedForKey(pkg({ dcc: undefined }))).toBeUndefined();
  });
});

describe('packageChanges', () => {
  it('says there is no earlier approved package', () => {
    expect(packageChanges(pkg(), null)).toEqual({
      packageId: 'p-new',
      resourceType: 'PATCH',
      deviceId: 'DEV-7',
      previous: null,
      header: [],
      lists: [],
      files: [],
      dcc: [],
      headerCompared: false,
    });
  });

  it('names the previous package with its state and approval time, and compares all parts', () => {
    const prev = pkg({
      id: 'p-old',
      name: 'fw 1.0',
      status: 'DELIVERED',
      header: everyType({ Large: 4 }),
      approvers: { u: { approved: true, decidedAt: '2026-01-01T00:00:00.000Z' } },
      dcc: { deviceId: 'DEV-7', telemetryType: 'TelB', messageLimit: 64, deviceLimit: 128 },
      resourceFile: { fileName: 'fw-old.bin', sizeBytes: 900, sha256: 'b'.repeat(64) },
    });
    const c = packageChanges(pkg(), prev);
    expect(c.previous).toEqual({
      id: 'p-old',
      name: 'fw 1.0',
      status: 'DELIVERED',
      type: 'RELEASE_SIGNED',
      resourceName: 'fw.bin',
      approvedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(c.header.map((h) => [h.path, h.old?.decimal, h.new?.decimal])).toEqual([['Large', '4', '3']]);
    expect(c.files[0]).toMatchObject({ file: 'payload', sameDigest: false, sameSize: false });
    expect(c.dcc).toEqual([{ field: 'telemetryType', old: 'TelB', new: 'TelA' }]);
    expect(c.build).toEqual([]);
    expect(c.headerCompared).toBe(true);
  });
});
