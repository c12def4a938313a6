import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../lambdas/adapters/memory/clock';
import type { AuditEvent, AuditSearch } from '../../lambdas/ports/audit-log';
import { verifyChain } from '../../shared/domain/audit-chain';
import { fresh } from './fresh-ids';

/** The log under the contract, timed by a clock the contract moves. */
export interface AuditLogSubject {
  log: AuditSearch;
  clock: ManualClock;
}

const event = (
  subject: string,
  actorId: string,
  action = 'APPROVED',
  details?: AuditEvent['details'],
): AuditEvent => ({
  subject,
  action,
  meaning: 'approves the package for release',
  actorId,
  actorName: 'Dana',
  actorRole: 'RELIABILITY_ENGINEER',
  ...(details ? { details } : {}),
});

/**
 * What the audit log promises (lambdas/ports/audit-log.ts), run against each adapter: per subject dense
 * sequence numbers from 1, one unbroken hash chain with a head, events stored as plain JSON, and a search
 * newest first whose pages continue where the last stopped. `make` may hand out the same log for every
 * case: each case uses subjects and actors of its own.
 */
export function auditLogContract(adapter: string, make: () => Promise<AuditLogSubject>) {
  describe(`AuditLog contract: ${adapter}`, () => {
    it('chains a subject’s events densely from 1 under one head; an unknown subject has none', async () => {
      const { log, clock } = await make();
      const subject = `PKG#${fresh('p')}`;
      const actor = fresh('actor');
      expect(await log.history(subject)).toEqual({ events: [], head: null });
      await log.recordOnly([
        event(subject, actor, 'CREATED', { note: 'first', gone: undefined }),
        event(subject, actor, 'SUBMITTED'),
      ]);
      clock.advance(1000);
      await log.recordOnly([event(subject, actor, 'APPROVED', { approved: '1/2' })]);
      const { events, head } = await log.history(subject);
      expect(events.map((e) => [e.seq, e.action])).toEqual([
        [1, 'CREATED'],
        [2, 'SUBMITTED'],
        [3, 'APPROVED'],
      ]);
      expect(events[0]?.at).toBe(events[1]?.at);
      expect(events[2]?.at).toBe(clock.now().toISOString());
      expect(events[0]?.details).toEqual({ note: 'first' });
      expect(events[2]?.prevHash).toBe(events[1]?.hash);
      expect(head).toEqual({ lastSeq: 3, lastHash: events[2]?.hash });
      expect(verifyChain(events, head)).toBeNull();
      // another subject's chain is its own
      const other = `USER#${fresh('u')}`;
      await log.recordOnly([event(other, actor, 'SIGNED_IN')]);
      expect((await log.history(other)).events.map((e) => e.seq)).toEqual([1]);
      expect((await log.history(subject)).head?.lastSeq).toBe(3);
    });

    it('searches newest first, a page at a time, by subject and by actor', async () => {
      const { log, clock } = await make();
      const actor = fresh('actor');
      const [s1, s2] = [`PKG#${fresh('p')}`, `PKG#${fresh('p')}`];
      const plan: [string, string][] = [
        [s1, 'CREATED'],
        [s2, 'CREATED'],
        [s1, 'SUBMITTED'],
        [s2, 'APPROVED'],
        [s1, 'APPROVED'],
      ];
      for (const [s, action] of plan) {
        clock.advance(1000);
        await log.recordOnly([event(s, actor, action)]);
      }
      const newest = [...plan].reverse().map(([s, a]) => `${s} ${a}`);
      const show = (es: { subject: string; action: string }[]) => es.map((e) => `${e.subject} ${e.action}`);

      const byActor = { filter: { actor }, limit: 2, budget: 100 };
      const first = await log.search(byActor);
      expect(show(first.events)).toEqual(newest.slice(0, 2));
      expect(first.next).not.toBeNull();
      const second = await log.search({ ...byActor, after: first.next ?? undefined });
      expect(show(second.events)).toEqual(newest.slice(2, 4));
      const third = await log.search({ ...byActor, after: second.next ?? undefined });
      expect(show(third.events)).toEqual(newest.slice(4));
      expect(third.next).toBeNull();

      const bySubject = await log.search({ filter: { subject: s1 }, limit: 10, budget: 100 });
      expect(bySubject.events.map((e) => [e.seq, e.action])).toEqual([
        [3, 'APPROVED'],
        [2, 'SUBMITTED'],
        [1, 'CREATED'],
      ]);
      expect(bySubject.next).toBeNull();
      expect(bySubject.examined).toBe(3);

      // a filter no key serves examines more than it returns
      const approved = await log.search({ filter: { actor, action: 'APPROVED' }, limit: 10, budget: 100 });
      expect(show(approved.events)).toEqual([`${s1} APPROVED`, `${s2} APPROVED`]);
      expect(approved.examined).toBe(5);
      expect(approved.next).toBeNull();
      // and stops at its budget, saying where
      const budgeted = await log.search({ filter: { actor, action: 'CREATED' }, limit: 10, budget: 3 });
      expect(budgeted.events).toEqual([]);
      expect(budgeted.examined).toBe(3);
      expect(budgeted.next).not.toBeNull();
      const rest = await log.search({
        filter: { actor, action: 'CREATED' },
        limit: 10,
        budget: 100,
        after: budgeted.next ?? undefined,
      });
      expect(show(rest.events)).toEqual([`${s2} CREATED`, `${s1} CREATED`]);
    });
  });
}
