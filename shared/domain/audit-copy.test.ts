import { describe, expect, it } from 'vitest';
import { type ChainedEvent, eventHash, GENESIS_HASH } from './audit-chain';
import { auditObjectBody, auditObjectKey, compareAuditCopy, parseAuditObjectKey } from './audit-copy';

function chain(subject: string, n: number): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const body = {
      seq,
      at: `2026-01-01T00:00:0${seq}.000Z`,
      subject,
      action: 'DCC_CREATED',
      meaning: 'creates a DCC',
      actorId: 'u1',
      actorName: 'Ann',
      actorRole: 'TECHNICAL_LEADER',
      details: { n: seq },
      prevHash: prev,
    };
    const e = { ...body, hash: eventHash(body) };
    out.push(e);
    prev = e.hash;
  }
  return out;
}

const itemsOf = (events: ChainedEvent[]) => [
  ...events.map((e) => ({ ...e, pk: e.subject, kind: 'AUDIT' })),
  {
    pk: events[0]!.subject,
    seq: 0,
    kind: 'AUDIT_HEAD',
    lastSeq: events.at(-1)!.seq,
    lastHash: events.at(-1)!.hash,
  },
];
const objectsOf = (events: ChainedEvent[]) =>
  new Map(events.map((e) => [auditObjectKey(e.subject, e.seq), auditObjectBody(e)]));

describe('audit copy layout and comparison', () => {
  it('names objects by subject and zero-padded seq, and reads the name back', () => {
    expect(auditObjectKey('PKG#abc-1', 7)).toBe('events/PKG/abc-1/0000000007.json');
    expect(parseAuditObjectKey('events/PKG/abc-1/0000000007.json')).toEqual({ subject: 'PKG#abc-1', seq: 7 });
    expect(parseAuditObjectKey('events/PKG/abc-1/7.json')).toBeNull();
  });

  it('finds nothing wrong when table and bucket agree', () => {
    const events = chain('DCC#1', 3);
    const r = compareAuditCopy(itemsOf(events), objectsOf(events));
    expect(r).toEqual({ subjects: 1, tableEvents: 3, bucketObjects: 3, problems: [] });
  });

  it('names a missing object', () => {
    const events = chain('DCC#1', 3);
    const objects = objectsOf(events);
    objects.delete(auditObjectKey('DCC#1', 2));
    const r = compareAuditCopy(itemsOf(events), objects);
    expect(r.problems).toEqual([
      {
        subject: 'DCC#1',
        seq: 2,
        message: 'missing in the bucket (events/DCC/1/0000000002.json)',
        missing: events[1],
      },
      // and the copy's own chain has a gap there
      { subject: 'DCC#1', seq: 3, message: 'the hash chain of the bucket copy is broken here' },
    ]);
  });

  it('names a tampered object, whether or not its own hash was recomputed', () => {
    const events = chain('DCC#1', 2);
    const objects = objectsOf(events);
    objects.set(auditObjectKey('DCC#1', 1), auditObjectBody({ ...events[0]!, actorName: 'Mallory' }));
    const r = compareAuditCopy(itemsOf(events), objects);
    expect(r.problems.map((p) => [p.subject, p.seq])).toContainEqual(['DCC#1', 1]);
    expect(r.problems[0]!.message).toMatch(/differs from the table .*does not match its content/);

    const forged = { ...events[0]!, actorName: 'Mallory' };
    const rehashed = { ...forged, hash: eventHash(forged) };
    objects.set(auditObjectKey('DCC#1', 1), auditObjectBody(rehashed));
    const again = compareAuditCopy(itemsOf(events), objects);
    expect(again.problems.map((p) => p.message).join('\n')).toMatch(
      /differs from the table .*own hash matches/,
    );
    // the forged hash no longer links to the next event of the copy
    expect(again.problems).toContainEqual({
      subject: 'DCC#1',
      seq: 2,
      message: 'the hash chain of the bucket copy is broken here',
    });
  });

  it('names a table event changed after it was copied, and an object the table does not hold', () => {
    const events = chain('DCC#1', 2);
    const items = itemsOf(events).map((i) => (i.seq === 2 ? { ...i, meaning: 'changed' } : i));
    const objects = objectsOf(events);
    objects.set(auditObjectKey('DCC#1', 3), auditObjectBody({ ...events[1]!, seq: 3 }));
    const r = compareAuditCopy(items, objects);
    expect(r.problems).toContainEqual({
      subject: 'DCC#1',
      seq: 2,
      message: 'the hash chain in the table is broken here',
    });
    expect(r.problems.map((p) => `${p.seq} ${p.message}`)).toContain(
      '3 in the bucket (events/DCC/1/0000000003.json) but not in the table',
    );
  });

  it('reports an object that is not JSON', () => {
    const events = chain('DCC#1', 1);
    const objects = objectsOf(events);
    objects.set(auditObjectKey('DCC#1', 1), '{not json');
    const r = compareAuditCopy(itemsOf(events), objects);
    expect(r.problems.map((p) => p.message)).toContain(
      'object events/DCC/1/0000000001.json is not valid JSON',
    );
  });
});
