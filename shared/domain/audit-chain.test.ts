import { describe, expect, it } from 'vitest';
import { type ChainedEvent, eventHash, GENESIS_HASH, verifyChain } from './audit-chain';

function chain(n: number): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const e = {
      seq: i,
      at: `2026-01-01T00:00:0${i}Z`,
      subject: 'PKG#1',
      action: 'APPROVED',
      meaning: 'approves',
      actorId: `u${i}`,
      actorName: `User ${i}`,
      actorRole: 'TECHNICAL_LEADER',
      details: { b: 1, a: [1, 2] },
      prevHash: prev,
    };
    const hash = eventHash(e);
    out.push({ ...e, hash });
    prev = hash;
  }
  return out;
}

describe('audit hash chain', () => {
  it('verifies an untouched chain', () => {
    expect(verifyChain(chain(5))).toBeNull();
  });
  it('detects a changed field in any event', () => {
    const c = chain(5);
    c[2] = { ...c[2]!, actorName: 'Mallory' };
    expect(verifyChain(c)).toBe(3);
  });
  it('detects a removed event', () => {
    const c = chain(5);
    c.splice(1, 1);
    expect(verifyChain(c)).toBe(3);
  });
  it('detects a changed detail even when keys are reordered', () => {
    const c = chain(3);
    c[0] = { ...c[0]!, details: { a: [1, 2], b: 2 } };
    expect(verifyChain(c)).toBe(1);
    const same = chain(3);
    same[0] = { ...same[0]!, details: { a: [1, 2], b: 1 } };
    expect(verifyChain(same)).toBeNull();
  });
  it('detects events removed from the end, or a removed head, against the recorded head', () => {
    const c = chain(4);
    const head = { lastSeq: 4, lastHash: c[3]!.hash };
    expect(verifyChain(c, head)).toBeNull();
    expect(verifyChain(c.slice(0, 3), head)).toBe(4);
    expect(verifyChain([], head)).toBe(1);
    expect(verifyChain(c, null)).toBe(5);
    expect(verifyChain([], null)).toBeNull();
  });
});
