import type { ChainedEvent } from './audit-event';

/**
 * The shared vocabulary of the completeness rules (audit-completeness.ts): what a disagreement is, the
 * events of one subject with small counting helpers, and the collector the rule sets write into.
 */

/**
 * One disagreement between the stored state and the audit record. `subject` names the record's subject
 * (`PKG#<id>`, `USER#<id>`, `RES#<id>`, `DCC#<id>`); `message` says what is missing, extra or different
 * in words an inspector reads ("approver <id> (Riley, RELIABILITY_ENGINEER) approved … but the record has
 * no APPROVED event by them").
 */
export interface Disagreement {
  subject: string;
  /** missing: the state shows it, the record lacks it; extra: the record claims what the state lacks */
  kind: 'missing' | 'extra' | 'duplicate' | 'mismatch';
  message: string;
}

/** The events of one subject in their order (seq). */
export class SubjectEvents {
  readonly events: readonly ChainedEvent[];

  constructor(events: readonly ChainedEvent[]) {
    this.events = [...events].sort((a, b) => Number(a.seq) - Number(b.seq));
  }

  of(...actions: string[]): ChainedEvent[] {
    return this.events.filter((e) => actions.includes(e.action));
  }

  count(action: string, where: (e: ChainedEvent) => boolean = () => true): number {
    return this.events.filter((e) => e.action === action && where(e)).length;
  }

  /** The events after the last one of `actions` (all events when there is none). */
  after(...actions: string[]): ChainedEvent[] {
    let from = -1;
    this.events.forEach((e, i) => {
      if (actions.includes(e.action)) from = i;
    });
    return this.events.slice(from + 1);
  }
}

/** A detail of an event as a string, or undefined. */
export const detail = (e: ChainedEvent | undefined, key: string): string | undefined => {
  const v = e?.details?.[key];
  return typeof v === 'string' ? v : undefined;
};

/** The ids listed under `key` ([{ id }]) in an event's details, or undefined when it lists none. */
export const detailIds = (e: ChainedEvent | undefined, key: string): string[] | undefined => {
  const v = e?.details?.[key];
  if (!Array.isArray(v)) return undefined;
  return v.flatMap((x) =>
    x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string'
      ? [(x as { id: string }).id]
      : [],
  );
};

/** The ids after the reassignments that came after `e` (from → to). */
function reassignedIds(
  ids: string[] | undefined,
  e: ChainedEvent | undefined,
  reassigned: readonly ChainedEvent[],
): string[] | undefined {
  if (!ids || !e) return ids;
  let out = ids;
  for (const r of reassigned.filter((x) => Number(x.seq) > Number(e.seq))) {
    const from = (r.details?.from as { id?: string } | undefined)?.id;
    const to = (r.details?.to as { id?: string } | undefined)?.id;
    if (from && to) out = out.map((id) => (id === from ? to : id));
  }
  return out;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Where the rule sets write what they find, one subject at a time. */
export class Findings {
  readonly list: Disagreement[] = [];

  constructor(private readonly eventsBySubject: ReadonlyMap<string, readonly ChainedEvent[]>) {}

  events(subject: string): SubjectEvents {
    return new SubjectEvents(this.eventsBySubject.get(subject) ?? []);
  }

  subjects(prefix: string): string[] {
    return [...this.eventsBySubject.keys()].filter((s) => s.startsWith(prefix)).sort();
  }

  add(subject: string, kind: Disagreement['kind'], message: string): void {
    this.list.push({ subject, kind, message });
  }

  /**
   * `found` events of `action` where the state says there must be `expected` (0 or 1): a missing, an
   * extra or a duplicate event, named with `what` (what the state shows, or what the event would claim).
   */
  exactly(subject: string, action: string, found: number, expected: 0 | 1, what: string): void {
    if (found === expected) return;
    if (expected === 1 && found === 0)
      this.add(subject, 'missing', `${what}, but the record has no ${action} event`);
    else if (expected === 0)
      this.add(subject, 'extra', `the record has ${found} ${action} event(s), but ${what}`);
    else this.add(subject, 'duplicate', `${what}, and the record has ${found} ${action} events for it`);
  }

  /** The ids an event lists (e.g. the chosen approvers) against the state's. */
  sameIds(
    subject: string,
    e: ChainedEvent | undefined,
    key: string,
    state: readonly string[],
    what: string,
    /** REASSIGNED events of the place (decision 351): each gives one listed person's place to another */
    reassigned: readonly ChainedEvent[] = [],
  ) {
    const listed = reassignedIds(detailIds(e, key), e, reassigned);
    if (!e || listed === undefined || sameSet(listed, state)) return;
    this.add(
      subject,
      'mismatch',
      `${what}: the ${e.action} event (seq ${e.seq}) lists ${listed.join(', ') || 'nobody'}, the state ${state.join(', ') || 'nobody'}`,
    );
  }
}
