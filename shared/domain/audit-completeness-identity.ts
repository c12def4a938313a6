import { detail, type Findings, type SubjectEvents } from './audit-completeness-core';
import {
  checkConfirmedDeletion,
  checkPendingDeletion,
  type ProposalState,
} from './audit-completeness-deletions';
import type { SignInFields } from './audit-completeness-sign-in';
import type { ChainedEvent } from './audit-event';
import { roleStatusOf } from './identity';
import { proposalExpiresAt } from './role-grants';
import { revocationExpiresAt } from './role-revocations';
import type { Role } from './roles';

/**
 * The identity rules of the completeness check (docs/decisions/290-audit-completeness-rules.md): users,
 * their role grants (two administrators), refusals, revocations and deletions, and access tokens. Every
 * event of a user is on `USER#<id>`, access tokens' on their owner's.
 */

/** A stored user, as far as the rules read it (its passkeys and company identity: SignInFields). */
export interface UserState extends SignInFields {
  id: string;
  email: string;
  userRole: Role;
  roleStatus?: 'GRANTED' | 'REQUESTED' | 'REFUSED' | 'NONE';
  emailConfirmed?: boolean;
  pendingEmail?: string;
  roleProposal?: { role: string; proposedById: string; proposedAt: string };
  /** the deletion of this administrator one admin proposed (decision 336) */
  deletionProposal?: ProposalState;
  /** the revocation of the granted role one admin proposed (decision 357) */
  revocationProposal?: ProposalState & { role?: string };
  tempPasswordHash?: string;
}

/** The claim of an address (`EMAIL#<email>`); a deleted account's stays, marked. */
export interface EmailClaimState {
  email: string;
  userId: string;
  deletedAt?: string;
}

export interface AccessTokenState {
  id: string;
  userId: string;
  name: string;
  revokedAt?: string;
}

/** Accounts a local stack creates on a new data folder (shared/domain/seed-users.ts): no event records them. */
export type SeededAccounts = readonly { email: string; role: string }[];

/** Access tokens stay a week after they expired, then the table's TTL removes them. */
const TOKEN_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Where a role comes from: the registration, a request in the settings, or an administrator's creation;
 * an account made by a first company sign-in holds no role (NONE) until its owner asks for one.
 */
const ORIGINS = [
  'USER_REGISTERED',
  'ROLE_REQUESTED',
  'ADMIN_CREATED',
  'ADMIN_PROMOTED',
  'COMPANY_ACCOUNT_CREATED',
];
/** The events that create an account: a registration, an administrator, a first company sign-in. */
const CREATIONS = ['USER_REGISTERED', 'ADMIN_CREATED', 'COMPANY_ACCOUNT_CREATED'];

/** The role an origin event names (a registration's only in its meaning: "registers as <ROLE> …"). */
function originRole(e: ChainedEvent): string | undefined {
  if (e.action === 'ADMIN_CREATED' || e.action === 'ADMIN_PROMOTED') return 'ADMIN';
  if (e.action === 'ROLE_REQUESTED') return detail(e, 'requested');
  if (e.action === 'COMPANY_ACCOUNT_CREATED') return undefined;
  return /registers as ([A-Z_]+)/.exec(e.meaning)?.[1];
}

const sameEmail = (a: string | undefined, b: string | undefined) => a?.toLowerCase() === b?.toLowerCase();

/** The address the record last gave the account (an update's `after.email`, or a confirmed change). */
function recordedEmail(ev: SubjectEvents): string | undefined {
  let email: string | undefined;
  for (const e of ev.events) {
    if (e.action === 'EMAIL_CHANGED') email = detail(e, 'after') ?? email;
    if (e.action === 'ACCOUNT_UPDATED') {
      const after = e.details?.after as { email?: unknown } | undefined;
      if (typeof after?.email === 'string') email = after.email;
    }
  }
  return email;
}

/** The role and its decisions since the role's origin. */
function checkRole(f: Findings, subject: string, u: UserState, ev: SubjectEvents, seeded: boolean): void {
  const origin = ev.of(...ORIGINS).at(-1);
  if (!origin) return; // reported as a missing creation (or a seeded account)
  const named = originRole(origin);
  if (named && named !== u.userRole)
    f.add(
      subject,
      'missing',
      `the account holds or asks for ${u.userRole}, but the record's last request (${origin.action}, seq ${origin.seq}) is for ${named}: no ROLE_REQUESTED for ${u.userRole}`,
    );
  // records older than role grants carry no status: nothing to compare
  if (u.roleStatus === undefined || seeded) return;
  const status = roleStatusOf(u);
  const since = ev.after(...ORIGINS);
  const grants = since.filter((e) => e.action === 'ROLE_GRANTED');
  const refusals = since.filter((e) => e.action === 'ROLE_REFUSED');
  const proposals = since.filter((e) => e.action === 'ROLE_PROPOSED');
  const role = `the role ${u.userRole}`;
  if (origin.action === 'ADMIN_CREATED' || origin.action === 'ADMIN_PROMOTED') {
    if (status !== 'GRANTED')
      f.add(
        subject,
        'mismatch',
        `the record made the account an administrator (${origin.action}, seq ${origin.seq}), but its role is ${status}`,
      );
    return;
  }
  checkRevocations(f, subject, u, ev);
  if (status === 'GRANTED') {
    f.exactly(subject, 'ROLE_GRANTED', grants.length, 1, `${role} is granted`);
    f.exactly(subject, 'ROLE_REFUSED', refusals.length, 0, `${role} is granted`);
    const grant = grants[0];
    if (grant) {
      const proposer = detail(grant, 'proposedBy');
      const proposal = proposals.find((p) => p.seq < grant.seq && p.actorId === proposer);
      if (!proposal)
        f.add(
          subject,
          'missing',
          `${role} was granted by ${grant.actorId} confirming a proposal by ${proposer ?? 'nobody'}, but the record has no ROLE_PROPOSED by ${proposer ?? 'anyone'} before it`,
        );
      else if (proposal.actorId === grant.actorId)
        f.add(
          subject,
          'mismatch',
          `${role} was proposed and confirmed by the same administrator ${grant.actorId}`,
        );
    }
  } else if (status === 'REFUSED') {
    f.exactly(subject, 'ROLE_REFUSED', refusals.length, 1, `${role} is refused`);
    const last = refusals.at(-1);
    for (const g of grants.filter((x) => last && x.seq > last.seq))
      f.add(
        subject,
        'extra',
        `the record grants ${u.userRole} (seq ${g.seq}) after its refusal, but the role is refused`,
      );
  } else {
    f.exactly(subject, 'ROLE_GRANTED', grants.length, 0, `${role} waits for a decision (${status})`);
    f.exactly(subject, 'ROLE_REFUSED', refusals.length, 0, `${role} waits for a decision (${status})`);
    const p = u.roleProposal;
    if (p && p.role === u.userRole) {
      const expiresAt = proposalExpiresAt(p.proposedAt);
      const matching = proposals.filter(
        (e) => e.actorId === p.proposedById && (detail(e, 'expiresAt') ?? expiresAt) === expiresAt,
      );
      f.exactly(
        subject,
        'ROLE_PROPOSED',
        matching.length,
        1,
        `${p.proposedById} proposed granting ${u.userRole} at ${p.proposedAt}`,
      );
    } else if (!p && proposals.length > 0) {
      f.add(
        subject,
        'extra',
        `the record has a ROLE_PROPOSED event (seq ${proposals.at(-1)!.seq}) since the last request, but the account has no proposal`,
      );
    }
  }
}

/**
 * Revocations that take two admins (decision 357): a stored proposal has exactly one
 * ROLE_REVOCATION_PROPOSED by its proposer; a ROLE_REFUSED that confirms one follows that proposer's
 * ROLE_REVOCATION_PROPOSED and is by another administrator.
 */
function checkRevocations(f: Findings, subject: string, u: UserState, ev: SubjectEvents): void {
  const p = u.revocationProposal;
  if (p) {
    const expiresAt = revocationExpiresAt(p.proposedAt);
    const matching = ev
      .of('ROLE_REVOCATION_PROPOSED')
      .filter((e) => e.actorId === p.proposedById && detail(e, 'expiresAt') === expiresAt);
    f.exactly(
      subject,
      'ROLE_REVOCATION_PROPOSED',
      matching.length,
      1,
      `${p.proposedById} proposed revoking the role at ${p.proposedAt}`,
    );
  }
  for (const r of ev.of('ROLE_REFUSED')) {
    const proposer = detail(r, 'proposedBy');
    if (!proposer) continue;
    const proposal = ev.of('ROLE_REVOCATION_PROPOSED').find((e) => e.seq < r.seq && e.actorId === proposer);
    if (!proposal)
      f.add(
        subject,
        'missing',
        `ROLE_REFUSED (seq ${r.seq}) confirms a revocation proposed by ${proposer}, but the record has no ROLE_REVOCATION_PROPOSED by them before it`,
      );
    else if (proposer === r.actorId)
      f.add(
        subject,
        'mismatch',
        `the revocation was proposed and confirmed by the same administrator ${proposer}`,
      );
  }
}

/** Every rule of one stored user. */
export function checkUser(f: Findings, u: UserState, seededAccounts: SeededAccounts): void {
  const subject = `USER#${u.id}`;
  const ev = f.events(subject);
  const who = `the account ${u.email}`;
  const seeded =
    ev.of(...ORIGINS).length === 0 &&
    seededAccounts.some((s) => sameEmail(s.email, u.email) && s.role === u.userRole);
  if (!seeded) {
    const created = CREATIONS.reduce((n, a) => n + ev.count(a), 0);
    f.exactly(subject, CREATIONS.join(' or '), created, 1, `${who} exists`);
  }
  f.exactly(subject, 'USER_DELETED', ev.count('USER_DELETED'), 0, `${who} still exists`);
  checkPendingDeletion(f, subject, 'USER_DELETION_PROPOSED', u.deletionProposal);
  checkRole(f, subject, u, ev, seeded);

  if (u.emailConfirmed !== undefined && !seeded) {
    // an administrator vouched for the address, or the company's provider verified it (email_verified)
    const confirmedElsewhere =
      ev.count('ADMIN_CREATED') + ev.count('ADMIN_PROMOTED') + ev.count('COMPANY_ACCOUNT_CREATED') > 0;
    const expected = u.emailConfirmed && !confirmedElsewhere ? 1 : 0;
    const found = ev.count('EMAIL_CONFIRMED');
    if (!(confirmedElsewhere && u.emailConfirmed && found <= 1))
      f.exactly(
        subject,
        'EMAIL_CONFIRMED',
        found,
        expected,
        u.emailConfirmed ? `${who} is confirmed` : `${who} is not confirmed`,
      );
  }
  const recorded = recordedEmail(ev);
  if (recorded && !sameEmail(recorded, u.email))
    f.add(
      subject,
      'missing',
      `${who} signs in with ${u.email}, but the record's last address is ${recorded}: no EMAIL_CHANGED to ${u.email}`,
    );
  const change = ev
    .of('EMAIL_CHANGE_REQUESTED', 'EMAIL_CHANGED', 'EMAIL_CHANGE_CANCELLED', 'ADMIN_PROMOTED')
    .at(-1);
  const requested = change?.action === 'EMAIL_CHANGE_REQUESTED';
  if (u.pendingEmail && !(requested && change.meaning.includes(u.pendingEmail)))
    f.add(
      subject,
      'missing',
      `${who} waits to move to ${u.pendingEmail}, but the record has no EMAIL_CHANGE_REQUESTED for it since the last change`,
    );
  if (!u.pendingEmail && requested)
    f.add(
      subject,
      'extra',
      `the record's last address change is a request (seq ${change.seq}), but ${who} has no pending address`,
    );
  if (u.tempPasswordHash) {
    const since = ev.after('PASSWORD_CHANGED', 'PASSWORD_RESET_USED', 'ADMIN_PROMOTED');
    if (!since.some((e) => e.action === 'PASSWORD_RESET_REQUESTED'))
      f.add(
        subject,
        'missing',
        `${who} has a mailed temporary password, but the record has no PASSWORD_RESET_REQUESTED since the last password change`,
      );
  }
}

/** A deleted account (its claim stays, marked): deleted once. */
export function checkDeletedClaim(f: Findings, c: EmailClaimState, stillThere: boolean): void {
  const subject = `USER#${c.userId}`;
  const what = `the account ${c.email} was deleted at ${c.deletedAt}`;
  f.exactly(subject, 'USER_DELETED', f.events(subject).count('USER_DELETED'), 1, what);
  checkConfirmedDeletion(f, subject, 'USER_DELETION_PROPOSED', 'USER_DELETED');
  if (stillThere) f.add(subject, 'mismatch', `${what}, yet the account still exists`);
}

/**
 * The record of an account that neither exists nor was deleted: a registration cancelled by the mailbox
 * owner, or one never confirmed (it expires after 24 hours and the table's TTL removes it).
 */
export function checkVanishedUser(f: Findings, subject: string): void {
  const ev = f.events(subject);
  if (ev.count('REGISTRATION_CANCELLED') > 1)
    f.add(
      subject,
      'duplicate',
      `the record has ${ev.count('REGISTRATION_CANCELLED')} REGISTRATION_CANCELLED events`,
    );
  const explained =
    ev.count('REGISTRATION_CANCELLED') === 1 ||
    (ev.count('USER_REGISTERED') === 1 && ev.count('EMAIL_CONFIRMED') === 0);
  // an access token's owner keeps a subject of their own only through their events; tokens alone explain nothing
  if (!explained)
    f.add(
      subject,
      'extra',
      `the record has ${ev.events.length} event(s) of an account that neither exists nor was deleted`,
    );
}

/** One access token: created once, revoked once when revoked. */
export function checkAccessToken(f: Findings, t: AccessTokenState): void {
  const subject = `USER#${t.userId}`;
  const ev = f.events(subject);
  const mine = (e: ChainedEvent) => detail(e, 'tokenId') === t.id;
  const what = `access token ${t.id} ('${t.name}')`;
  f.exactly(subject, 'ACCESS_TOKEN_CREATED', ev.count('ACCESS_TOKEN_CREATED', mine), 1, `${what} exists`);
  f.exactly(
    subject,
    'ACCESS_TOKEN_REVOKED',
    ev.count('ACCESS_TOKEN_REVOKED', mine),
    t.revokedAt ? 1 : 0,
    t.revokedAt ? `${what} was revoked at ${t.revokedAt}` : `${what} is not revoked`,
  );
}

/** Tokens the record created that are gone though they cannot have expired out of the table yet. */
export function checkVanishedTokens(f: Findings, tokens: ReadonlySet<string>, now: Date): void {
  for (const subject of f.subjects('USER#'))
    for (const e of f.events(subject).of('ACCESS_TOKEN_CREATED')) {
      const id = detail(e, 'tokenId');
      const expires = Date.parse(detail(e, 'expiresAt') ?? '');
      if (id && !tokens.has(id) && Number.isFinite(expires) && expires + TOKEN_KEPT_MS > now.getTime())
        f.add(
          subject,
          'extra',
          `the record created access token ${id} (seq ${e.seq}), which is not stored though it cannot have expired yet`,
        );
    }
}
