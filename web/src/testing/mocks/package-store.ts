import type { Package, UserRef } from '@shared/api/contracts/packages';
import type { HistoryEvent } from '@shared/domain/audit-event';
import { newPackageHeader } from '@shared/domain/header/header-rules';
import type { Header } from '@shared/domain/header/header-schema';
import { deletedPackageMessage } from '@shared/domain/package-deletion';
import { APPROVAL_ROUND, DELIVERY_ROUND, isEditable } from '@shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '@shared/domain/package-texts';
import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { db } from './db';
import { fail, type Gate, gate } from './mock-http';
import { PACKAGE_FIXTURES } from './package-fixtures';

/**
 * The mock backend's packages (issue 6): the package fixtures added to the mock db, the headers and the
 * audit history the base db does not hold, and the checks every package handler starts with.
 */

/** An audit event of the mock's package history (the subject is the package it is kept under). */
type MockEvent = HistoryEvent;

/** State the base mock db does not hold; rebuilt whenever the db was reset (a new packages list). */
const state = {
  packagesRef: null as Package[] | null,
  headers: new Map<string, Header>(),
  history: new Map<string, MockEvent[]>(),
  nextId: 1,
};

export const now = () => new Date().toISOString();

/** A new id for a package or DCC the mock creates. */
export function nextMockId(prefix: string): string {
  state.nextId += 1;
  return `${prefix}-${state.nextId}`;
}

function event(
  events: MockEvent[],
  at: string,
  who: UserRef,
  action: string,
  meaning: string,
  details?: Record<string, unknown>,
) {
  events.push({
    seq: events.length + 1,
    at,
    action,
    meaning,
    actorId: who.id,
    actorName: who.name,
    actorRole: who.userRole,
    details,
  });
}

/** The history a fixture package would have had, from its status and its approvers' decisions. */
function seedHistory(p: Package): MockEvent[] {
  const events: MockEvent[] = [];
  const add = (who: UserRef, action: string, meaning: string, details?: Record<string, unknown>) =>
    event(events, p.createdAt, who, action, meaning, details);
  add(p.initiator, 'PACKAGE_CREATED', AUDIT_MEANING.created(p.type, p.resourceName));
  if (isEditable(p.status)) return events;
  add(p.initiator, 'APPROVAL_REQUESTED', AUDIT_MEANING.notify, {
    approvers: p.approvers.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role })),
  });
  for (const [round, approved, rejected] of [
    [APPROVAL_ROUND, AUDIT_MEANING.approve, AUDIT_MEANING.reject],
    [DELIVERY_ROUND, AUDIT_MEANING.approveDelivery, AUDIT_MEANING.rejectDelivery],
  ] as const) {
    const prefix = round === DELIVERY_ROUND ? 'DELIVERY_' : '';
    for (const a of p[round.list]) {
      if (a.approved) add(a.user, `${prefix}APPROVED`, approved);
      if (a.rejected) add(a.user, `${prefix}REJECTED`, rejected, { rejectionNote: a.rejectionNote });
    }
  }
  return events;
}

/** Adds the issue-6 fixtures to a freshly reset db, once. */
export function ensure(): void {
  if (state.packagesRef === db.packages) return;
  for (const p of PACKAGE_FIXTURES)
    if (!db.packages.some((q) => q.id === p.id)) db.packages.push(structuredClone(p));
  state.packagesRef = db.packages;
  state.headers = new Map();
  state.history = new Map();
}

/** 401 without a valid token; 403 for an admin unless `nonAdmin` is false. */
export function gateUser(request: Request, nonAdmin = true): Gate<UserRef> {
  ensure();
  const g = gate(request, nonAdmin ? NON_ADMIN_ROLES : undefined);
  if (g.error) return g;
  const { id, name, email, userRole } = g.user;
  return { user: { id, name, email, userRole } };
}

export const find = (id: unknown) => db.packages.find((p) => p.id === String(id));

/** The caller (as gateUser) and the package of a route's `:id`, or the 401, 403 or 404. */
export function packageFor(
  request: Request,
  id: unknown,
  nonAdmin = true,
): { error: Response; user?: undefined; p?: undefined } | { error?: undefined; user: UserRef; p: Package } {
  const g = gateUser(request, nonAdmin);
  if (g.error) return g;
  const found = packageOr404(id);
  return found.error ? found : { user: g.user, p: found.p };
}

/** The package of a route's `:id`, or its 404. */
export function packageOr404(
  id: unknown,
): { error: Response; p?: undefined } | { error?: undefined; p: Package } {
  const p = find(id);
  if (p) return { p };
  // a package an admin deleted: its tombstone says who, when and why (issue 23)
  const gone = typeof id === 'string' ? db.tombstones.get(id) : undefined;
  return { error: fail(404, gone ? deletedPackageMessage(gone) : PACKAGE_ERR.packageNotFound) };
}

export const pkgBody = (p: Package) => JSON.stringify(p);

export function save(next: Package): Package {
  const i = db.packages.findIndex((p) => p.id === next.id);
  const stored = { ...next, updatedAt: now() };
  if (i >= 0) db.packages[i] = stored;
  else db.packages.push(stored);
  return stored;
}

export function historyOf(p: Package): MockEvent[] {
  let events = state.history.get(p.id);
  if (!events) {
    events = seedHistory(p);
    state.history.set(p.id, events);
  }
  return events;
}

/** Appends an audit event to the package's history. */
export function record(
  p: Package,
  who: UserRef,
  action: string,
  meaning: string,
  details?: Record<string, unknown>,
) {
  event(historyOf(p), now(), who, action, meaning, details);
}

export function resourceOf(p: Package) {
  return db.resources.find((r) => r.id === p.resourceId);
}

export function headerOf(p: Package): Header {
  let h = state.headers.get(p.id);
  if (!h) {
    h = newPackageHeader({ packageType: p.type, resourceSizeBytes: resourceOf(p)?.sizeBytes ?? 0 });
    state.headers.set(p.id, h);
  }
  return h;
}

export function setHeader(p: Package, header: Header): void {
  state.headers.set(p.id, header);
}

/** The users who may be chosen as approvers or signer: granted roles only (issue 12), no admin. */
export function candidates(excluded: readonly string[]): UserRef[] {
  return db.users
    .filter((u) => u.userRole !== 'ADMIN' && u.roleStatus !== 'REQUESTED' && u.roleStatus !== 'REFUSED')
    .filter((u) => !excluded.includes(u.id))
    .map((u) => ({ id: u.id, name: u.name, email: u.email, userRole: u.userRole }));
}

/**
 * The package of a draft edit (header, DCC, notify): only the initiator changes it, and only while it is
 * a draft; else the 404, 403 or 409 (`what` names the action in the refusal).
 */
export function draftFor(request: Request, id: unknown, what: string): ReturnType<typeof packageFor> {
  const g = packageFor(request, id);
  if (g.error) return g;
  if (g.p.initiator.id !== g.user.id) return { error: fail(403, PACKAGE_ERR.notInitiator(what)) };
  if (!isEditable(g.p.status)) return { error: fail(409, PACKAGE_ERR.notDraft(what)) };
  return g;
}
