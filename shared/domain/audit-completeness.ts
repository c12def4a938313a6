import { type Disagreement, Findings } from './audit-completeness-core';
import {
  type AccessTokenState,
  checkAccessToken,
  checkDeletedClaim,
  checkUser,
  checkVanishedTokens,
  checkVanishedUser,
  type EmailClaimState,
  type SeededAccounts,
  type UserState,
} from './audit-completeness-identity';
import {
  checkPackage,
  checkTombstone,
  checkVanishedPackage,
  type PackageState,
  type TombstoneState,
} from './audit-completeness-packages';
import {
  type CompanyLinkState,
  checkSignIn,
  checkSignInItems,
  type PasskeyState,
} from './audit-completeness-sign-in';
import type { ChainedEvent } from './audit-event';

export type { Disagreement } from './audit-completeness-core';
export type { AccessTokenState, EmailClaimState, UserState } from './audit-completeness-identity';
export type { PackageState, TombstoneState } from './audit-completeness-packages';
export type { CompanyLinkState, PasskeyState } from './audit-completeness-sign-in';

/**
 * Complete, not only unbroken: the stored state and the audit record say the same thing
 * (docs/decisions/290-audit-completeness-rules.md). Pure: the state's items and the record's events in,
 * every disagreement out, each naming its subject (package, user, resource, DCC) and what is missing,
 * extra or different. `npm run audit:verify` reads the tables and prints what this finds.
 *
 * - packages: every decided approver entry (both rounds) has exactly one event of its decision by that
 *   person, none without a decision; every status the package passed through has its event (exactly one
 *   where the lifecycle allows one); a delivered-again package's earlier delivery rounds are history:
 *   each ended in exactly one DELIVERY_REJECTED, the current round agrees with the state entry by entry;
 * - users: the account's creation, its confirmation, its role (granted: proposed by one administrator and
 *   confirmed by another; refused or revoked: the refusal; requested: no decision since the request) and
 *   its deletion (the claim kept of a deleted account); access tokens created and revoked; passkeys added
 *   and removed (and a removal proposed), company identities linked, requested, proposed and unlinked;
 * - resources and DCCs: each stored one was created once (with its provenance and SBOM), each deleted
 *   one deleted once; a record of something that neither exists nor was deleted is a disagreement too.
 */

export interface ResourceState {
  id: string;
  name: string;
  provenance?: unknown;
  sbom?: unknown;
}

export interface DccState {
  id: string;
  deviceId?: string;
}

export interface CompletenessInput {
  packages: readonly PackageState[];
  tombstones: readonly TombstoneState[];
  users: readonly UserState[];
  emailClaims: readonly EmailClaimState[];
  accessTokens: readonly AccessTokenState[];
  /** passkey items (`PASSKEY#`); absent: none stored */
  passkeys?: readonly PasskeyState[];
  /** company identity links (`IDP#`); absent: none stored */
  companyLinks?: readonly CompanyLinkState[];
  resources: readonly ResourceState[];
  dccs: readonly DccState[];
  /** every event of the record (chained, as stored) */
  events: readonly ChainedEvent[];
  /** the local stack's seeded accounts, which no event records (empty against AWS) */
  seededAccounts?: SeededAccounts;
  now: Date;
}

function checkResource(f: Findings, r: ResourceState): void {
  const subject = `RES#${r.id}`;
  const ev = f.events(subject);
  const what = `resource '${r.name}'`;
  f.exactly(subject, 'RESOURCE_UPLOADED', ev.count('RESOURCE_UPLOADED'), 1, `${what} is stored`);
  f.exactly(subject, 'RESOURCE_DELETED', ev.count('RESOURCE_DELETED'), 0, `${what} is still stored`);
  f.exactly(
    subject,
    'RESOURCE_PROVENANCE_ATTACHED',
    ev.count('RESOURCE_PROVENANCE_ATTACHED'),
    r.provenance ? 1 : 0,
    r.provenance ? `${what} carries build provenance` : `${what} carries no build provenance`,
  );
  f.exactly(
    subject,
    'RESOURCE_SBOM_ATTACHED',
    ev.count('RESOURCE_SBOM_ATTACHED'),
    r.sbom ? 1 : 0,
    r.sbom ? `${what} carries an SBOM` : `${what} carries no SBOM`,
  );
}

function checkDcc(f: Findings, d: DccState): void {
  const subject = `DCC#${d.id}`;
  const ev = f.events(subject);
  const what = `DCC ${d.deviceId ?? d.id}`;
  f.exactly(subject, 'DCC_CREATED', ev.count('DCC_CREATED'), 1, `${what} is stored`);
  f.exactly(subject, 'DCC_DELETED', ev.count('DCC_DELETED'), 0, `${what} is still stored`);
}

/** A record of a resource or DCC that is not stored: it was deleted, exactly once. */
function checkVanished(f: Findings, subject: string, created: string, deleted: string): void {
  const ev = f.events(subject);
  if (ev.count(created) === 0 && ev.count(deleted) === 0) return;
  const what = `the record has ${ev.count(created)} ${created} event(s) of ${subject}, which is not stored`;
  f.exactly(subject, deleted, ev.count(deleted), 1, what);
}

/** Every disagreement between the state and the record, ordered by subject. */
export function checkCompleteness(input: CompletenessInput): Disagreement[] {
  const bySubject = new Map<string, ChainedEvent[]>();
  for (const e of input.events) {
    const list = bySubject.get(e.subject);
    if (list) list.push(e);
    else bySubject.set(e.subject, [e]);
  }
  const f = new Findings(bySubject);
  const seeded = input.seededAccounts ?? [];

  const packageIds = new Set([...input.packages.map((p) => p.id), ...input.tombstones.map((t) => t.id)]);
  for (const p of input.packages) checkPackage(f, p);
  for (const t of input.tombstones) checkTombstone(f, t);
  for (const s of f.subjects('PKG#')) if (!packageIds.has(s.slice(4))) checkVanishedPackage(f, s);

  const userIds = new Set(input.users.map((u) => u.id));
  const passkeys = input.passkeys ?? [];
  const links = input.companyLinks ?? [];
  const passkeyById = new Map(passkeys.map((p) => [p.id, p]));
  const linkByKey = new Map(links.map((l) => [`${l.issuer}#${l.subject}`, l]));
  for (const u of input.users) {
    checkUser(f, u, seeded);
    checkSignIn(f, u, passkeyById, linkByKey);
  }
  checkSignInItems(f, new Map(input.users.map((u) => [u.id, u])), passkeys, links);
  const deleted = input.emailClaims.filter((c) => c.deletedAt);
  for (const c of deleted) checkDeletedClaim(f, c, userIds.has(c.userId));
  const known = new Set([...userIds, ...deleted.map((c) => c.userId)]);
  for (const s of f.subjects('USER#')) if (!known.has(s.slice(5))) checkVanishedUser(f, s);
  for (const t of input.accessTokens) checkAccessToken(f, t);
  checkVanishedTokens(f, new Set(input.accessTokens.map((t) => t.id)), input.now);

  const resourceIds = new Set(input.resources.map((r) => r.id));
  for (const r of input.resources) checkResource(f, r);
  for (const s of f.subjects('RES#'))
    if (!resourceIds.has(s.slice(4))) checkVanished(f, s, 'RESOURCE_UPLOADED', 'RESOURCE_DELETED');
  const dccIds = new Set(input.dccs.map((d) => d.id));
  for (const d of input.dccs) checkDcc(f, d);
  for (const s of f.subjects('DCC#'))
    if (!dccIds.has(s.slice(4))) checkVanished(f, s, 'DCC_CREATED', 'DCC_DELETED');

  return f.list.sort((a, b) => a.subject.localeCompare(b.subject));
}

/** The stored items of each table, as `audit:verify` scans them (keys and `kind` included). */
export interface StoredItems {
  packages: readonly Record<string, unknown>[];
  users: readonly Record<string, unknown>[];
  resources: readonly Record<string, unknown>[];
  dcc: readonly Record<string, unknown>[];
  /** the audit table: events and chain heads (seq 0) */
  audit: readonly Record<string, unknown>[];
}

const ofKind = (items: readonly Record<string, unknown>[], kind: string) =>
  items.filter((i) => i.kind === kind);

/**
 * The completeness input from the tables' items (infra/lib/definitions.ts: packages `PKG#`/`GONE#`,
 * users `USER#`/`EMAIL#`/`ACCESSTOKEN#`/`PASSKEY#`/`IDP#`, resources `RES#`, dcc `DCC#`, audit events seq > 0).
 */
export function completenessInputOf(
  items: StoredItems,
  now: Date,
  seededAccounts: SeededAccounts = [],
): CompletenessInput {
  return {
    packages: ofKind(items.packages, 'PACKAGE') as unknown as PackageState[],
    tombstones: ofKind(items.packages, 'TOMBSTONE').map((i) => i.tombstone as TombstoneState),
    users: ofKind(items.users, 'USER') as unknown as UserState[],
    emailClaims: ofKind(items.users, 'EMAIL').map((i) => ({
      email: String(i.pk).slice('EMAIL#'.length),
      userId: String(i.userId),
      ...(typeof i.deletedAt === 'string' ? { deletedAt: i.deletedAt } : {}),
    })),
    accessTokens: ofKind(items.users, 'ACCESS_TOKEN') as unknown as AccessTokenState[],
    passkeys: ofKind(items.users, 'PASSKEY') as unknown as PasskeyState[],
    companyLinks: ofKind(items.users, 'IDP_LINK') as unknown as CompanyLinkState[],
    resources: ofKind(items.resources, 'RESOURCE') as unknown as ResourceState[],
    dccs: ofKind(items.dcc, 'DCC') as unknown as DccState[],
    events: items.audit
      .filter((i) => Number(i.seq) > 0)
      .map((i) => ({ ...(i as unknown as ChainedEvent), subject: String(i.pk) })),
    seededAccounts,
    now,
  };
}
