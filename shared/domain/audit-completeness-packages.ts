import { detail, type Findings, SubjectEvents } from './audit-completeness-core';
import {
  checkConfirmedDeletion,
  checkPendingDeletion,
  type ProposalState,
} from './audit-completeness-deletions';
import type { ChainedEvent } from './audit-event';
import type { PackageStatus } from './model/package';

/**
 * The package rules of the completeness check (docs/decisions/290-audit-completeness-rules.md): what a
 * package's stored state says happened, and the events of its record (`PKG#<id>`) that must say the same.
 */

/** An approver entry as stored (the fields the rules read). */
export interface EntryState {
  user: { id: string; name?: string };
  role?: string;
  approved: boolean;
  rejected: boolean;
  decidedAt?: string;
}

/** A stored package, as far as the rules read it. */
export interface PackageState {
  id: string;
  name: string;
  status: PackageStatus;
  signed: boolean;
  approvers: Record<string, EntryState>;
  approverCount: number;
  deliveryApprovers: Record<string, EntryState>;
  deliveryApproverCount: number;
  dccId?: string;
  copiedFrom?: { dcc?: { dccId: string } };
  signer?: { id: string };
  artefact?: { key: string };
  generation?: { state: 'RUNNING' | 'FAILED'; from?: PackageStatus };
  /** a deletion one admin proposed (decision 336) */
  deletionProposal?: ProposalState;
}

/** What is kept of a deleted package (`GONE#<id>`). */
export interface TombstoneState {
  id: string;
  name: string;
  status: PackageStatus;
}

/** Statuses only a package whose approval round completed can be in (besides the two special cases below). */
const AFTER_APPROVAL: readonly PackageStatus[] = [
  'AWAITING_SIGNATURE',
  'GENERATING',
  'APPROVED',
  'SIGNED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
];
const GENERATED: readonly PackageStatus[] = [
  'APPROVED',
  'SIGNED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
];
const IN_DELIVERY: readonly PackageStatus[] = ['DELIVERY_PENDING', 'DELIVERED', 'DELIVERY_REJECTED'];
const ROUND_STARTS = ['DELIVERY_STARTED', 'REDELIVERED'];

const allApproved = (p: PackageState) => {
  const entries = Object.values(p.approvers);
  return entries.length > 0 && entries.every((e) => e.approved);
};

/** The approval round completed: its last vote moved the package on (FULLY_APPROVED). */
function passedApproval(p: PackageState): boolean {
  if (AFTER_APPROVAL.includes(p.status)) return true;
  // an unsigned package whose generation failed went back with every vote in
  if (p.status === 'PENDING_APPROVAL') return p.generation?.state === 'FAILED';
  // rejected at signing: every approver had approved
  return p.status === 'REJECTED' && allApproved(p);
}

/** The signer signed: a signed package generating, generated, in delivery, or back after a failed generation. */
function wasSigned(p: PackageState): boolean {
  if (!p.signed) return false;
  if (['GENERATING', ...GENERATED].includes(p.status)) return true;
  return p.status === 'AWAITING_SIGNATURE' && p.generation?.state === 'FAILED';
}

const who = (id: string, e: EntryState) => {
  const about = [e.user.name, e.role].filter(Boolean).join(', ');
  return about ? `${id} (${about})` : id;
};

/**
 * One voting round: every decided entry has exactly one event of its decision by that person, an
 * undecided one none, nobody else decided, and the approvals count up exactly (`approved: "k/n"`).
 */
function checkRound(
  f: Findings,
  subject: string,
  entries: Record<string, EntryState>,
  size: number,
  events: readonly ChainedEvent[],
  actions: { approve: string; reject: string },
  round: string,
): void {
  for (const [id, e] of Object.entries(entries)) {
    const mine = (a: string) => events.filter((x) => x.action === a && x.actorId === id).length;
    const at = e.decidedAt ? ` at ${e.decidedAt}` : '';
    const approve = e.approved ? 1 : 0;
    const reject = e.rejected ? 1 : 0;
    f.exactly(
      subject,
      actions.approve,
      mine(actions.approve),
      approve,
      e.approved
        ? `${round} approver ${who(id, e)} approved${at}`
        : `${round} approver ${who(id, e)} has not approved`,
    );
    f.exactly(
      subject,
      actions.reject,
      mine(actions.reject),
      reject,
      e.rejected
        ? `${round} approver ${who(id, e)} rejected${at}`
        : `${round} approver ${who(id, e)} has not rejected`,
    );
  }
  for (const x of events)
    if ((x.action === actions.approve || x.action === actions.reject) && !entries[x.actorId])
      f.add(
        subject,
        'extra',
        `the ${x.action} event (seq ${x.seq}) is by ${x.actorId} (${x.actorName}), who is not a ${round} approver of the package`,
      );
  // the counter each approval saw: 1/n, 2/n, … in the record's order
  events
    .filter((x) => x.action === actions.approve)
    .forEach((x, i) => {
      const said = detail(x, 'approved');
      const exact = `${i + 1}/${size}`;
      if (said !== undefined && said !== exact)
        f.add(
          subject,
          'mismatch',
          `the ${x.action} event (seq ${x.seq}) says approved ${said}, but it is approval ${exact}`,
        );
    });
}

/** The delivery rounds of the record: each starts with DELIVERY_STARTED or REDELIVERED. */
function deliveryRounds(ev: SubjectEvents): ChainedEvent[][] {
  const rounds: ChainedEvent[][] = [];
  for (const e of ev.events) {
    if (ROUND_STARTS.includes(e.action)) rounds.push([e]);
    else if (rounds.length > 0) rounds.at(-1)!.push(e);
  }
  return rounds;
}

/**
 * The delivery: the state holds only the current round. Earlier rounds are history, each ended by
 * exactly one DELIVERY_REJECTED (which is why the package was delivered again) and never delivered; the
 * current round (the events after the last DELIVERY_STARTED / REDELIVERED) must agree with the state's
 * delivery approvers entry by entry.
 */
function checkDelivery(f: Findings, subject: string, p: PackageState, ev: SubjectEvents): void {
  const inDelivery = IN_DELIVERY.includes(p.status);
  const deliveryActions = ['DELIVERY_APPROVED', 'DELIVERY_REJECTED', 'DELIVERED', 'REDELIVERED'];
  f.exactly(
    subject,
    'DELIVERY_STARTED',
    ev.count('DELIVERY_STARTED'),
    inDelivery ? 1 : 0,
    inDelivery ? `the package is ${p.status}` : `the package was never sent for delivery (${p.status})`,
  );
  if (!inDelivery) {
    for (const e of ev.of(...deliveryActions))
      f.add(
        subject,
        'extra',
        `the record has a ${e.action} event (seq ${e.seq}), but the package was never sent for delivery (${p.status})`,
      );
    return;
  }
  const rounds = deliveryRounds(ev);
  const current = rounds.at(-1) ?? [];
  rounds.slice(0, -1).forEach((r, i) => {
    const ended = r.filter((e) => e.action === 'DELIVERY_REJECTED').length;
    if (ended !== 1)
      f.add(
        subject,
        ended === 0 ? 'missing' : 'duplicate',
        `delivery round ${i + 1} (from seq ${r[0]!.seq}) was started again, so it ended in one rejection, but the record has ${ended} DELIVERY_REJECTED events in it`,
      );
    for (const e of r.filter((x) => x.action === 'DELIVERED'))
      f.add(
        subject,
        'extra',
        `delivery round ${i + 1} has a DELIVERED event (seq ${e.seq}), but the package was delivered again after it`,
      );
  });
  f.sameIds(
    subject,
    current[0],
    'approvers',
    Object.keys(p.deliveryApprovers),
    "the current delivery round's approvers",
    current.filter((e) => e.action === 'REASSIGNED' && detail(e, 'seat') === 'deliveryApprover'),
  );
  checkRound(
    f,
    subject,
    p.deliveryApprovers,
    p.deliveryApproverCount,
    current,
    { approve: 'DELIVERY_APPROVED', reject: 'DELIVERY_REJECTED' },
    'delivery',
  );
  const delivered = p.status === 'DELIVERED';
  f.exactly(
    subject,
    'DELIVERED',
    current.filter((e) => e.action === 'DELIVERED').length,
    delivered ? 1 : 0,
    delivered ? 'the package is DELIVERED' : `the package is ${p.status}`,
  );
}

/** Generation: the XML's record, and its failures and retries pairing up with the state's generation. */
function checkGeneration(f: Findings, subject: string, p: PackageState, ev: SubjectEvents): void {
  const generated = GENERATED.includes(p.status);
  f.exactly(
    subject,
    'PACKAGE_GENERATED',
    ev.count('PACKAGE_GENERATED'),
    generated ? 1 : 0,
    generated
      ? `the package's XML was generated (${p.status})`
      : `the package has no generated XML (${p.status})`,
  );
  const made = ev.of('PACKAGE_GENERATED')[0];
  const key = detail(made, 'artefactKey');
  if (made && p.artefact && key !== undefined && key !== p.artefact.key)
    f.add(
      subject,
      'mismatch',
      `the PACKAGE_GENERATED event (seq ${made.seq}) names ${key}, the package ${p.artefact.key}`,
    );
  const failed = ev.count('GENERATION_FAILED');
  const retried = ev.count('GENERATION_RETRIED');
  const open = p.generation?.state === 'FAILED' ? 1 : 0;
  if (failed - retried !== open)
    f.add(
      subject,
      failed - retried < open ? 'missing' : 'extra',
      `the package's generation is ${p.generation?.state ?? (generated ? 'done' : 'not started')}, but the record has ${failed} GENERATION_FAILED and ${retried} GENERATION_RETRIED events (a failure is retried before the next one)`,
    );
}

/** Every rule of one stored package. */
export function checkPackage(f: Findings, p: PackageState): void {
  const subject = `PKG#${p.id}`;
  const ev = f.events(subject);
  const name = `package '${p.name}' (${p.status})`;
  f.exactly(subject, 'PACKAGE_CREATED', ev.count('PACKAGE_CREATED'), 1, `${name} exists`);
  f.exactly(
    subject,
    'PACKAGE_STARTED_FROM',
    ev.count('PACKAGE_STARTED_FROM'),
    p.copiedFrom ? 1 : 0,
    p.copiedFrom
      ? `${name} was started from another package`
      : `${name} was not started from another package`,
  );
  f.exactly(subject, 'PACKAGE_DELETED', ev.count('PACKAGE_DELETED'), 0, `${name} still exists`);
  checkPendingDeletion(f, subject, 'PACKAGE_DELETION_PROPOSED', p.deletionProposal);

  // the DCC: the last attach names the DCC the package carries (a copied DCC needs none)
  const attached = ev.of('DCC_ATTACHED').at(-1);
  if (p.dccId && attached && detail(attached, 'dccId') !== p.dccId)
    f.add(
      subject,
      'mismatch',
      `the package carries DCC ${p.dccId}, but its last DCC_ATTACHED event (seq ${attached.seq}) names ${detail(attached, 'dccId')}`,
    );
  if (p.dccId && !attached && p.copiedFrom?.dcc?.dccId !== p.dccId)
    f.add(subject, 'missing', `the package carries DCC ${p.dccId}, but the record has no DCC_ATTACHED event`);
  if (!p.dccId && attached)
    f.add(
      subject,
      'extra',
      `the record has DCC_ATTACHED (seq ${attached.seq}), but the package carries no DCC`,
    );

  // the approval round: the one since the last withdrawal to a draft (decision 351), its places as reassigned
  const round = new SubjectEvents(ev.after('WITHDRAWN'));
  const notified = p.status !== 'DRAFT';
  f.exactly(
    subject,
    'APPROVAL_REQUESTED',
    round.count('APPROVAL_REQUESTED'),
    notified ? 1 : 0,
    notified
      ? `${name} was sent for approval`
      : `${name} was never sent for approval (since its last withdrawal)`,
  );
  f.sameIds(
    subject,
    round.of('APPROVAL_REQUESTED')[0],
    'approvers',
    Object.keys(p.approvers),
    'the approvers',
    round.of('REASSIGNED').filter((e) => detail(e, 'seat') === 'approver'),
  );
  checkRound(
    f,
    subject,
    p.approvers,
    p.approverCount,
    round.of('APPROVED', 'REJECTED'),
    { approve: 'APPROVED', reject: 'REJECTED' },
    'approval',
  );
  const passed = passedApproval(p);
  f.exactly(
    subject,
    'FULLY_APPROVED',
    round.count('FULLY_APPROVED'),
    passed ? 1 : 0,
    passed ? `${name} completed its approval round` : `${name} did not complete its approval round`,
  );

  // the signature
  const signed = wasSigned(p);
  const bySigner = (e: ChainedEvent) => !p.signer || e.actorId === p.signer.id;
  f.exactly(
    subject,
    'SIGNED',
    ev.count('SIGNED', bySigner),
    signed ? 1 : 0,
    signed ? `${name} was signed by ${p.signer?.id}` : `${name} was not signed`,
  );
  if (ev.count('SIGNED') !== ev.count('SIGNED', bySigner))
    f.add(
      subject,
      'extra',
      `the record has a SIGNED event by someone other than the chosen signer ${p.signer?.id}`,
    );
  const refused = p.signed && p.status === 'REJECTED' && allApproved(p);
  f.exactly(
    subject,
    'SIGNING_REJECTED',
    ev.count('SIGNING_REJECTED'),
    refused ? 1 : 0,
    refused ? `${name} was rejected at signing` : `${name} was not rejected at signing`,
  );

  checkGeneration(f, subject, p, ev);
  checkDelivery(f, subject, p, ev);
}

/** A deleted package: created once, deleted once. */
export function checkTombstone(f: Findings, t: TombstoneState): void {
  const subject = `PKG#${t.id}`;
  const ev = f.events(subject);
  const name = `package '${t.name}' was deleted (in ${t.status})`;
  f.exactly(subject, 'PACKAGE_DELETED', ev.count('PACKAGE_DELETED'), 1, name);
  f.exactly(subject, 'PACKAGE_CREATED', ev.count('PACKAGE_CREATED'), 1, name);
  checkConfirmedDeletion(f, subject, 'PACKAGE_DELETION_PROPOSED', 'PACKAGE_DELETED');
}

/** A record of a package that neither exists nor left a tombstone: only a deletion from before tombstones explains it. */
export function checkVanishedPackage(f: Findings, subject: string): void {
  const ev = f.events(subject);
  if (ev.count('PACKAGE_DELETED') === 0)
    f.add(
      subject,
      'extra',
      `the record has ${ev.events.length} event(s) of this package, which neither exists nor was deleted`,
    );
}
