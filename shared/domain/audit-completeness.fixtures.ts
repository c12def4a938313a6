import { type CompletenessInput, checkCompleteness, type UserState } from './audit-completeness';
import type { ChainedEvent } from './audit-event';

/** Test fixtures of the completeness rules: an event as stored, and the check of accounts alone. */

/** One stored event of `subject` (its hash fields empty: the rules read neither). */
export const chainedEvent = (
  subject: string,
  seq: number,
  action: string,
  actorId: string,
  details = {},
  meaning = '',
): ChainedEvent => ({
  subject,
  seq,
  at: '2026-01-01T00:00:00.000Z',
  action,
  meaning,
  actorId,
  actorName: actorId,
  actorRole: 'ADMIN',
  details,
  prevHash: '',
  hash: '',
});

/** The disagreements of these accounts and events (no packages, resources or DCCs). */
export const checkUsers = (
  users: UserState[],
  events: ChainedEvent[],
  more: Partial<CompletenessInput> = {},
) =>
  checkCompleteness({
    packages: [],
    tombstones: [],
    users,
    emailClaims: [],
    accessTokens: [],
    resources: [],
    dccs: [],
    events,
    now: new Date('2026-01-03T00:00:00Z'),
    ...more,
  });
