import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompletenessInput,
  checkCompleteness,
  completenessInputOf,
  type PackageState,
  type UserState,
} from './audit-completeness';
import { chainedEvent, checkUsers } from './audit-completeness.fixtures';
import type { ChainedEvent } from './audit-event';
import { deletionExpiresAt } from './deletion-proposals';
import type { PackageStatus } from './model/package';

/**
 * A small model of the package lifecycle that writes what the services write: the state after each step
 * and the events each step records. A complete walk must give no disagreement; the same walk with any one
 * decision's event removed, or recorded twice, must give one naming the package.
 */
type Step =
  | 'approve'
  | 'reject'
  | 'sign'
  | 'rejectSigning'
  | 'generationFails'
  | 'retry'
  | 'generated'
  | 'deliver'
  | 'approveDelivery'
  | 'rejectDelivery';

const VOTERS = ['u-riley', 'u-terry', 'u-tess'];
const DELIVERY_VOTERS = ['u-riley', 'u-terry'];
const SIGNER = 'u-sam';

class Walk {
  p: PackageState;
  events: ChainedEvent[] = [];

  constructor(signed: boolean) {
    this.p = {
      id: 'p1',
      name: 'pump-fw',
      status: 'DRAFT',
      signed,
      approvers: {},
      approverCount: 0,
      deliveryApprovers: {},
      deliveryApproverCount: 0,
    };
    this.event('PACKAGE_CREATED', 'u-dana');
    this.p.dccId = 'd1';
    this.event('DCC_ATTACHED', 'u-dana', { dccId: 'd1' });
  }

  event(action: string, actorId: string, details: Record<string, unknown> = {}) {
    this.events.push({
      subject: 'PKG#p1',
      seq: this.events.length + 1,
      at: '2026-01-01T00:00:00.000Z',
      action,
      meaning: action.toLowerCase(),
      actorId,
      actorName: actorId,
      actorRole: 'ROLE',
      details,
      prevHash: '',
      hash: '',
    });
  }

  notify() {
    this.p.status = 'PENDING_APPROVAL';
    this.p.approvers = Object.fromEntries(
      VOTERS.map((id) => [id, { user: { id }, approved: false, rejected: false }]),
    );
    this.p.approverCount = VOTERS.length;
    if (this.p.signed) this.p.signer = { id: SIGNER };
    this.event('APPROVAL_REQUESTED', 'u-dana', { approvers: VOTERS.map((id) => ({ id })) });
  }

  /** The steps the state allows now. */
  next(): Step[] {
    const p = this.p;
    switch (p.status) {
      case 'PENDING_APPROVAL':
        return p.generation?.state === 'FAILED' ? ['retry'] : ['approve', 'reject'];
      case 'AWAITING_SIGNATURE':
        return p.generation?.state === 'FAILED' ? ['retry'] : ['sign', 'rejectSigning'];
      case 'GENERATING':
        return ['generated', 'generationFails'];
      case 'APPROVED':
      case 'SIGNED':
      case 'DELIVERY_REJECTED':
        return ['deliver'];
      case 'DELIVERY_PENDING':
        return ['approveDelivery', 'rejectDelivery'];
      default:
        return [];
    }
  }

  take(step: Step) {
    const p = this.p;
    const waiting = (list: PackageState['approvers']) => Object.keys(list).find((id) => !list[id]!.approved)!;
    const now = '2026-01-02T00:00:00.000Z';
    switch (step) {
      case 'approve': {
        const id = waiting(p.approvers);
        p.approvers[id] = { ...p.approvers[id]!, approved: true, decidedAt: now };
        const k = Object.values(p.approvers).filter((e) => e.approved).length;
        this.event('APPROVED', id, { approved: `${k}/${p.approverCount}` });
        if (k === p.approverCount) {
          p.status = p.signed ? 'AWAITING_SIGNATURE' : 'GENERATING';
          if (!p.signed) p.generation = { state: 'RUNNING', from: 'PENDING_APPROVAL' };
          this.event('FULLY_APPROVED', id);
        }
        return;
      }
      case 'reject': {
        const id = waiting(p.approvers);
        p.approvers[id] = { ...p.approvers[id]!, rejected: true, decidedAt: now };
        p.status = 'REJECTED';
        return this.event('REJECTED', id);
      }
      case 'sign':
        p.status = 'GENERATING';
        p.generation = { state: 'RUNNING', from: 'AWAITING_SIGNATURE' };
        return this.event('SIGNED', SIGNER);
      case 'rejectSigning':
        p.status = 'REJECTED';
        return this.event('SIGNING_REJECTED', SIGNER);
      case 'generationFails':
        p.status = p.generation!.from!;
        p.generation = { ...p.generation!, state: 'FAILED' };
        return this.event('GENERATION_FAILED', 'system');
      case 'retry':
        p.status = 'GENERATING';
        p.generation = { ...p.generation!, state: 'RUNNING' };
        return this.event('GENERATION_RETRIED', SIGNER);
      case 'generated':
        p.status = p.signed ? 'SIGNED' : 'APPROVED';
        p.generation = undefined;
        p.artefact = { key: 'artefacts/p1.xml' };
        return this.event('PACKAGE_GENERATED', 'system', { artefactKey: 'artefacts/p1.xml' });
      case 'deliver': {
        const again = p.status === 'DELIVERY_REJECTED';
        p.status = 'DELIVERY_PENDING';
        p.deliveryApprovers = Object.fromEntries(
          DELIVERY_VOTERS.map((id) => [id, { user: { id }, approved: false, rejected: false }]),
        );
        p.deliveryApproverCount = DELIVERY_VOTERS.length;
        return this.event(again ? 'REDELIVERED' : 'DELIVERY_STARTED', SIGNER, {
          approvers: DELIVERY_VOTERS.map((id) => ({ id })),
        });
      }
      case 'approveDelivery': {
        const list = p.deliveryApprovers;
        const id = waiting(list);
        list[id] = { ...list[id]!, approved: true, decidedAt: now };
        const k = Object.values(list).filter((e) => e.approved).length;
        this.event('DELIVERY_APPROVED', id, { approved: `${k}/${p.deliveryApproverCount}` });
        if (k === p.deliveryApproverCount) {
          p.status = 'DELIVERED';
          this.event('DELIVERED', id);
        }
        return;
      }
      case 'rejectDelivery': {
        const id = waiting(p.deliveryApprovers);
        p.deliveryApprovers[id] = { ...p.deliveryApprovers[id]!, rejected: true, decidedAt: now };
        p.status = 'DELIVERY_REJECTED';
        return this.event('DELIVERY_REJECTED', id);
      }
      default:
        return step satisfies never;
    }
  }
}

const input = (
  p: PackageState,
  events: ChainedEvent[],
  more: Partial<CompletenessInput> = {},
): CompletenessInput => ({
  packages: [p],
  tombstones: [],
  users: [],
  emailClaims: [],
  accessTokens: [],
  resources: [],
  dccs: [],
  events,
  now: new Date('2026-01-03T00:00:00Z'),
  ...more,
});

/** A walk: notified, then `choices` pick among the allowed steps until none is left or they run out. */
function walk(signed: boolean, choices: number[]): Walk {
  const w = new Walk(signed);
  w.notify();
  for (const c of choices) {
    const allowed = w.next();
    if (allowed.length === 0) break;
    w.take(allowed[c % allowed.length]!);
  }
  return w;
}

/** Events whose loss the check must notice: every one but the draft's own edits. */
const DECISIONS = (e: ChainedEvent) => e.action !== 'DCC_ATTACHED';

const walks = fc.record({
  signed: fc.boolean(),
  choices: fc.array(fc.nat(5), { maxLength: 24 }),
});

describe('package completeness', () => {
  it('finds nothing in a complete record of any walk through the lifecycle', () => {
    fc.assert(
      fc.property(walks, ({ signed, choices }) => {
        const w = walk(signed, choices);
        expect(checkCompleteness(input(w.p, w.events))).toEqual([]);
      }),
    );
  });

  it('names the package when any one decision event is missing from the record', () => {
    fc.assert(
      fc.property(walks, fc.nat(), ({ signed, choices }, pick) => {
        const w = walk(signed, choices);
        // a delivery approval of a round that was rejected and delivered again is held by no state any
        // more (the new round starts empty): its loss leaves nothing to compare, so it is not picked
        const ended = (e: ChainedEvent) =>
          e.action === 'DELIVERY_APPROVED' &&
          w.events.some((x) => x.action === 'REDELIVERED' && w.events.indexOf(x) > w.events.indexOf(e));
        const decisions = w.events.filter((e) => DECISIONS(e) && !ended(e));
        const lost = decisions[pick % decisions.length]!;
        const found = checkCompleteness(
          input(
            w.p,
            w.events.filter((e) => e !== lost),
          ),
        );
        expect(found.length).toBeGreaterThan(0);
        expect(found.every((d) => d.subject === 'PKG#p1')).toBe(true);
      }),
    );
  });

  it('names the package when any one decision event is recorded twice', () => {
    fc.assert(
      fc.property(walks, fc.nat(), ({ signed, choices }, pick) => {
        const w = walk(signed, choices);
        const decisions = w.events.filter(DECISIONS);
        const twice = decisions[pick % decisions.length]!;
        const events = [...w.events, { ...twice, seq: w.events.length + 1 }];
        expect(checkCompleteness(input(w.p, events)).length).toBeGreaterThan(0);
      }),
    );
  });

  it('names the package and the approver whose approval has no event', () => {
    const w = walk(false, [0]);
    const events = w.events.filter((e) => e.action !== 'APPROVED');
    expect(checkCompleteness(input(w.p, events))).toEqual([
      {
        subject: 'PKG#p1',
        kind: 'missing',
        message: expect.stringMatching(/approval approver u-riley .*approved at .*no APPROVED event/),
      },
    ]);
  });

  it('finds an approval event the state does not hold, and a count that skips', () => {
    const w = walk(false, [0, 0]);
    w.p.approvers['u-terry'] = { user: { id: 'u-terry' }, approved: false, rejected: false };
    const found = checkCompleteness(input(w.p, w.events));
    expect(found.map((d) => d.kind)).toEqual(['extra']);
    expect(found[0]!.message).toMatch(/1 APPROVED event.*u-terry has not approved/);
    const skipped = walk(false, [0, 0]);
    skipped.events[4]!.details = { approved: '1/3' };
    expect(checkCompleteness(input(skipped.p, skipped.events))[0]!.message).toMatch(
      /says approved 1\/3, but it is approval 2\/3/,
    );
  });

  it('reads a delivered-again package: earlier rounds ended in one rejection, the current one matches the state', () => {
    // deliver, reject, deliver again, approve both: delivered
    const w = walk(false, [0, 0, 0, 0, 0, 1, 0, 0, 0]);
    expect(w.p.status).toBe('DELIVERED');
    expect(w.events.map((e) => e.action)).toContain('REDELIVERED');
    expect(checkCompleteness(input(w.p, w.events))).toEqual([]);
    // the redelivery's own event lost: the rejection of the first round now seems to be in the current one
    const lost = w.events.filter((e) => e.action !== 'REDELIVERED');
    expect(checkCompleteness(input(w.p, lost)).map((d) => d.kind)).toContain('extra');
  });

  it('a package stuck after its last vote (no transition) is not a disagreement of the record', () => {
    const w = walk(false, [0, 0]);
    const p: PackageState = {
      ...w.p,
      approvers: { ...w.p.approvers, 'u-tess': { user: { id: 'u-tess' }, approved: true, rejected: false } },
    };
    const events = [...w.events];
    w.event('APPROVED', 'u-tess', { approved: '3/3' });
    expect(checkCompleteness(input(p, [...events, w.events.at(-1)!]))).toEqual([]);
  });

  it('tombstones need their deletion event; records of vanished packages need one too', () => {
    const w = walk(false, []);
    const t = { id: 'p1', name: 'pump-fw', status: 'PENDING_APPROVAL' as PackageStatus };
    const none = { ...input(w.p, w.events), packages: [], tombstones: [t] };
    expect(checkCompleteness(none)[0]!.message).toMatch(/was deleted .*no PACKAGE_DELETED/);
    const vanished = { ...input(w.p, w.events), packages: [] };
    expect(checkCompleteness(vanished)[0]!.message).toMatch(/neither exists nor was deleted/);
  });
});

const ev = chainedEvent;

const dana: UserState = {
  id: 'dana',
  email: 'dana@example.com',
  userRole: 'DESIGN_ENGINEER_DEV',
  roleStatus: 'GRANTED',
  emailConfirmed: true,
};
const registered = [
  ev(
    'USER#dana',
    1,
    'USER_REGISTERED',
    'dana',
    {},
    'registers as DESIGN_ENGINEER_DEV and asks for that role',
  ),
  ev('USER#dana', 2, 'EMAIL_CONFIRMED', 'dana'),
];
const users = checkUsers;

describe('identity completeness', () => {
  const proposed = ev('USER#dana', 3, 'ROLE_PROPOSED', 'ada');
  const granted = ev('USER#dana', 4, 'ROLE_GRANTED', 'abe', { proposedBy: 'ada' });

  it.each([
    ['a grant proposed and confirmed by two admins', [...registered, proposed, granted], []],
    ['a grant with no confirmation', [...registered, proposed], ['missing']],
    ['a confirmation with no proposal', [...registered, granted], ['missing']],
    [
      'a grant proposed and confirmed by one admin',
      [...registered, { ...proposed, actorId: 'abe' }, { ...granted, details: { proposedBy: 'abe' } }],
      ['mismatch'],
    ],
    ['a grant recorded twice', [...registered, proposed, granted, { ...granted, seq: 5 }], ['duplicate']],
    ['no creation event', [registered[1]!, proposed, { ...granted, seq: 4 }], ['missing']],
  ])('%s', (_, events, kinds) => {
    expect(users([dana], events).map((d) => d.kind)).toEqual(kinds);
  });

  it('a refusal or revocation needs its ROLE_REFUSED; a requested role no decision since the request', () => {
    const refused = { ...dana, roleStatus: 'REFUSED' as const };
    expect(users([refused], [...registered, proposed, granted]).map((d) => d.message)).toEqual([
      expect.stringMatching(/refused, but the record has no ROLE_REFUSED/),
    ]);
    const revoked = [...registered, proposed, granted, ev('USER#dana', 5, 'ROLE_REFUSED', 'ada')];
    expect(users([refused], revoked)).toEqual([]);
    const requestedAgain = [
      ...revoked,
      ev('USER#dana', 6, 'ROLE_REQUESTED', 'dana', { requested: 'TECHNICAL_LEADER' }),
    ];
    const asks = { ...dana, userRole: 'TECHNICAL_LEADER' as const, roleStatus: 'REQUESTED' as const };
    expect(users([asks], requestedAgain)).toEqual([]);
    // the role changed in the state, but the request was not recorded
    expect(users([asks], revoked).map((d) => d.message)).toContain(
      "the account holds or asks for TECHNICAL_LEADER, but the record's last request (USER_REGISTERED, seq 1) is for DESIGN_ENGINEER_DEV: no ROLE_REQUESTED for TECHNICAL_LEADER",
    );
  });

  it('a pending proposal needs its ROLE_PROPOSED by the proposer', () => {
    const at = '2026-01-02T00:00:00.000Z';
    const waiting: UserState = {
      ...dana,
      roleStatus: 'REQUESTED',
      roleProposal: { role: dana.userRole, proposedById: 'ada', proposedAt: at },
    };
    expect(users([waiting], registered)[0]!.message).toMatch(/ada proposed granting .*no ROLE_PROPOSED/);
    expect(users([waiting], [...registered, proposed])).toEqual([]);
  });

  it('seeded accounts need no event; deleted accounts need USER_DELETED; vanished ones an explanation', () => {
    const seeded = [{ email: dana.email, role: dana.userRole }];
    expect(users([dana], [], { seededAccounts: seeded })).toEqual([]);
    const claim = { email: dana.email, userId: 'dana', deletedAt: '2026-01-02T00:00:00Z' };
    expect(users([], registered, { emailClaims: [claim] })[0]!.message).toMatch(
      /was deleted .*no USER_DELETED/,
    );
    expect(
      users([], [...registered, ev('USER#dana', 3, 'USER_DELETED', 'ada')], { emailClaims: [claim] }),
    ).toEqual([]);
    // confirmed, then gone without a deletion: the record describes an account the state lost
    expect(users([], registered)[0]!.message).toMatch(/neither exists nor was deleted/);
    // never confirmed: an expired registration
    expect(users([], [registered[0]!])).toEqual([]);
  });

  it('two-admin deletions (decision 336): a pending proposal needs its event; a confirmation a proposal by another admin', () => {
    const at = '2026-01-02T00:00:00.000Z';
    // an account whose role is still requested: only the deletion's rule speaks
    const pending: UserState = {
      ...dana,
      roleStatus: 'REQUESTED',
      deletionProposal: { proposedById: 'ada', proposedAt: at },
    };
    const proposal = ev('USER#dana', 3, 'USER_DELETION_PROPOSED', 'ada', {
      expiresAt: deletionExpiresAt(at),
    });
    expect(users([pending], registered)[0]!.message).toMatch(
      /ada proposed its deletion .*no USER_DELETION_PROPOSED/,
    );
    expect(users([pending], [...registered, proposal])).toEqual([]);

    const claim = { email: dana.email, userId: 'dana', deletedAt: '2026-01-03T00:00:00Z' };
    const confirmed = ev('USER#dana', 4, 'USER_DELETED', 'abe', { proposedBy: 'ada' });
    const deleted = (events: ChainedEvent[]) => users([], events, { emailClaims: [claim] });
    expect(deleted([...registered, proposal, confirmed])).toEqual([]);
    expect(deleted([...registered, { ...confirmed, seq: 3 }]).map((d) => d.kind)).toEqual(['missing']);
    expect(
      deleted([
        ...registered,
        { ...proposal, actorId: 'abe' },
        { ...confirmed, details: { proposedBy: 'abe' } },
      ]).map((d) => d.kind),
    ).toEqual(['mismatch']);
  });

  it('access tokens: created once, revoked once', () => {
    const token = { id: 't1', userId: 'dana', name: 'ci' };
    const created = ev('USER#dana', 3, 'ACCESS_TOKEN_CREATED', 'dana', {
      tokenId: 't1',
      expiresAt: '2026-02-01T00:00:00Z',
    });
    const revoked = ev('USER#dana', 4, 'ACCESS_TOKEN_REVOKED', 'dana', { tokenId: 't1' });
    const seeded = [{ email: dana.email, role: dana.userRole }];
    const granted = { seededAccounts: seeded };
    expect(
      users([dana], [...registered.slice(0, 0), created], { ...granted, accessTokens: [token] }),
    ).toEqual([]);
    expect(
      users([dana], [created], { ...granted, accessTokens: [{ ...token, revokedAt: 'x' }] })[0]!.kind,
    ).toBe('missing');
    expect(users([dana], [created, revoked], { ...granted, accessTokens: [token] })[0]!.kind).toBe('extra');
    expect(users([dana], [created], granted)[0]!.message).toMatch(/not stored though it cannot have expired/);
  });
});

describe('completenessInputOf', () => {
  it("reads the tables' items by kind and the audit table's events", () => {
    const read = completenessInputOf(
      {
        packages: [
          { pk: 'PKG#p1', sk: 'PKG', kind: 'PACKAGE', id: 'p1' },
          { pk: 'PKG#p1', sk: 'TASK#APPROVE#u', kind: 'TASK' },
          {
            pk: 'GONE#p2',
            sk: 'GONE',
            kind: 'TOMBSTONE',
            tombstone: { id: 'p2', name: 'x', status: 'DRAFT' },
          },
        ],
        users: [
          { pk: 'USER#u', kind: 'USER', id: 'u' },
          { pk: 'EMAIL#a@example.com', kind: 'EMAIL', userId: 'u', deletedAt: 'then' },
          { pk: 'ACCESSTOKEN#t', kind: 'ACCESS_TOKEN', id: 't' },
          { pk: 'THROTTLE#x', kind: 'THROTTLE' },
        ],
        resources: [
          { pk: 'RES#r', kind: 'RESOURCE', id: 'r' },
          { pk: 'NAME#n', kind: 'NAME' },
        ],
        dcc: [{ pk: 'DCC#d', kind: 'DCC', id: 'd' }],
        audit: [
          { pk: 'PKG#p1', seq: 0, lastSeq: 1 },
          { pk: 'PKG#p1', seq: 1, kind: 'AUDIT', action: 'PACKAGE_CREATED', subject: 'PKG#p1' },
        ],
      },
      new Date(),
    );
    expect(read.packages.map((p) => p.id)).toEqual(['p1']);
    expect(read.tombstones.map((t) => t.id)).toEqual(['p2']);
    expect(read.users.map((u) => u.id)).toEqual(['u']);
    expect(read.emailClaims).toEqual([{ email: 'a@example.com', userId: 'u', deletedAt: 'then' }]);
    expect(read.accessTokens.map((t) => t.id)).toEqual(['t']);
    expect(read.resources.map((r) => r.id)).toEqual(['r']);
    expect(read.dccs.map((d) => d.id)).toEqual(['d']);
    expect(read.events.map((e) => e.action)).toEqual(['PACKAGE_CREATED']);
  });
});
