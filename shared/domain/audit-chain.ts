import { createHash } from 'node:crypto';
import type { ChainedEvent } from './audit-event';

/*
 * Hash chain over a subject's audit events: each event's hash covers its canonical content and the
 * previous event's hash, so changing, removing or reordering any stored event breaks every hash after it.
 */
export type { ChainedEvent };

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level: the same event always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash of an event given the previous one's. */
export function eventHash(e: Omit<ChainedEvent, 'hash'> & { hash?: string }): string {
  const content = { ...e, prevHash: undefined, hash: undefined };
  return createHash('sha256').update(e.prevHash).update('\n').update(canonicalJson(content)).digest('hex');
}

/** The last sequence number and hash of a subject's chain, as the log recorded them when appending. */
export interface ChainHead {
  lastSeq: number;
  lastHash: string;
}

/**
 * Verifies a subject's events in order; returns the first broken sequence number, or null if intact.
 * With the recorded head it also notices events removed from the end (or a removed head), which the
 * links between the remaining events cannot show.
 */
export function verifyChain(events: readonly ChainedEvent[], head?: ChainHead | null): number | null {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  for (const e of events) {
    if (e.seq !== expectedSeq || e.prevHash !== prev || eventHash(e) !== e.hash) return e.seq;
    prev = e.hash;
    expectedSeq += 1;
  }
  if (head === undefined) return null;
  if (head === null) return events.length > 0 ? expectedSeq : null;
  if (head.lastSeq !== expectedSeq - 1 || head.lastHash !== prev) return expectedSeq;
  return null;
}
