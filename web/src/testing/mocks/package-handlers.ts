import { createDccSchema, type Dcc } from '@shared/api/contracts/dcc';
import {
  type ApproverEntry,
  generatePackageSchema,
  type Package,
  type UserRef,
} from '@shared/api/contracts/packages';
import { computeFields, newPackageHeader, validateHeaderUpdate } from '@shared/domain/header/header-rules';
import type { Header } from '@shared/domain/header/header-schema';
import {
  checkApproverSelection,
  DELIVERABLE,
  MIN_SIGNED_RELEASE_ROLES,
  stageOfType,
} from '@shared/domain/package-rules';
import { NON_ADMIN_ROLES, type Role } from '@shared/domain/roles';
import { API_ERR, MSG } from '@shared/messages';
import { HttpResponse, http } from 'msw';
import { db } from './db';
import { LARGE_PACKAGE_IDS, PACKAGE_FIXTURES } from './package-fixtures';
import { pageOf } from './paging';

/**
 * Mock backend of the package lifecycle (issue 6) for mock mode and the component tests: creation,
 * header, DCC, approvers, notify, approve/reject/sign, delivery, download and history, following
 * DESIGN §2 closely enough that the screens meet every answer the real API gives.
 */

const API = '/dev';

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
const fail = (status: number, errorMessage: string, extra: Record<string, unknown> = {}) =>
  json({ errorMessage, ...extra }, status);

interface MockEvent {
  seq: number;
  at: string;
  action: string;
  meaning: string;
  actorId: string;
  actorName: string;
  actorRole: string;
  details?: Record<string, unknown>;
}

/** State the base mock db does not hold; rebuilt whenever the db was reset (a new packages list). */
const state = {
  packagesRef: null as Package[] | null,
  headers: new Map<string, Header>(),
  history: new Map<string, MockEvent[]>(),
  nextId: 1,
};

function seedHistory(p: Package): MockEvent[] {
  const events: MockEvent[] = [];
  const add = (who: UserRef, action: string, meaning: string, details?: Record<string, unknown>) =>
    events.push({
      seq: events.length + 1,
      at: p.createdAt,
      action,
      meaning,
      actorId: who.id,
      actorName: who.name,
      actorRole: who.userRole,
      details,
    });
  add(p.initiator, 'PACKAGE_CREATED', `creates a ${p.type} package from ${p.resourceName}`);
  if (p.status === 'DRAFT') return events;
  add(p.initiator, 'APPROVAL_REQUESTED', 'sends the package for approval', {
    approvers: p.approvers.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role })),
  });
  for (const a of p.approvers) {
    if (a.approved)
      add(a.user, 'APPROVED', 'approves the package: its content, header and DCC are fit for the next step');
    if (a.rejected)
      add(a.user, 'REJECTED', 'rejects the package; it will not be generated', {
        rejectionNote: a.rejectionNote,
      });
  }
  for (const a of p.deliveryApprovers) {
    if (a.approved) add(a.user, 'DELIVERY_APPROVED', 'approves delivery of the package to devices');
    if (a.rejected)
      add(a.user, 'DELIVERY_REJECTED', 'rejects the delivery; the release engineer may re-deliver', {
        rejectionNote: a.rejectionNote,
      });
  }
  return events;
}

/** Adds the issue-6 fixtures to a freshly reset db, once. */
function ensure(): void {
  if (state.packagesRef === db.packages) return;
  for (const p of PACKAGE_FIXTURES)
    if (!db.packages.some((q) => q.id === p.id)) db.packages.push(structuredClone(p));
  state.packagesRef = db.packages;
  state.headers = new Map();
  state.history = new Map();
}

function caller(request: Request) {
  const header = request.headers.get('Authorization') ?? '';
  const id = db.tokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
  return id ? db.users.find((u) => u.id === id) : undefined;
}

type Gate = { error: Response; user?: undefined } | { error?: undefined; user: UserRef };

function gate(request: Request, nonAdmin = true): Gate {
  ensure();
  const user = caller(request);
  if (!user) return { error: fail(401, API_ERR.invalidToken) };
  if (nonAdmin && user.userRole === 'ADMIN') return { error: fail(403, API_ERR.forbidden) };
  return { user: { id: user.id, name: user.name, email: user.email, userRole: user.userRole } };
}

async function body<T>(request: Request): Promise<Partial<T>> {
  try {
    return (await request.json()) as Partial<T>;
  } catch {
    return {};
  }
}

const now = () => new Date().toISOString();
const find = (id: unknown) => db.packages.find((p) => p.id === String(id));
const pkgBody = (p: Package) => JSON.stringify(p);

function save(next: Package): Package {
  const i = db.packages.findIndex((p) => p.id === next.id);
  const stored = { ...next, updatedAt: now() };
  if (i >= 0) db.packages[i] = stored;
  else db.packages.push(stored);
  return stored;
}

function record(
  p: Package,
  who: UserRef,
  action: string,
  meaning: string,
  details?: Record<string, unknown>,
) {
  const events = historyOf(p);
  events.push({
    seq: events.length + 1,
    at: now(),
    action,
    meaning,
    actorId: who.id,
    actorName: who.name,
    actorRole: who.userRole,
    details,
  });
}

function historyOf(p: Package): MockEvent[] {
  let events = state.history.get(p.id);
  if (!events) {
    events = seedHistory(p);
    state.history.set(p.id, events);
  }
  return events;
}

function resourceOf(p: Package) {
  return db.resources.find((r) => r.id === p.resourceId);
}

function headerOf(p: Package): Header {
  let h = state.headers.get(p.id);
  if (!h) {
    h = newPackageHeader({ packageType: p.type, resourceSizeBytes: resourceOf(p)?.sizeBytes ?? 0 });
    state.headers.set(p.id, h);
  }
  return h;
}

function candidates(excluded: readonly string[]) {
  return (
    db.users
      // only granted roles are offered (issue 12)
      .filter((u) => u.userRole !== 'ADMIN' && u.roleStatus !== 'REQUESTED' && u.roleStatus !== 'REFUSED')
      .filter((u) => !excluded.includes(u.id))
      .map((u) => ({ id: u.id, name: u.name, email: u.email, userRole: u.userRole }))
  );
}

function draftOwner(p: Package, user: UserRef, what: string): Response | null {
  if (p.initiator.id !== user.id) return fail(403, `Only the package's initiator can ${what}`);
  if (p.status !== 'DRAFT')
    return fail(
      409,
      `The package was already sent for approval; its ${what.replace(/^edit /, '')} can no longer change`,
    );
  return null;
}

const GENERATED = ['APPROVED', 'SIGNED', 'DELIVERY_PENDING', 'DELIVERED', 'DELIVERY_REJECTED'];

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The XML a package downloads as (a stand-in for the real artefact). */
function xmlOf(p: Package): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<package xmlns="urn:firmware-release-portal:package:1" formatVersion="1">`,
    `  <metadata packageId="${escapeXml(p.id)}" name="${escapeXml(p.name)}" type="${p.type}"/>`,
    '</package>',
    '',
  ].join('\n');
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const fileNameOf = (p: Package) => `${p.name.replace(/[^\w.-]+/g, '_')}.xml`;

function vote(
  p: Package,
  list: 'approvers' | 'deliveryApprovers',
  user: UserRef,
  waiting: Package['status'],
  what: string,
): { error: Response } | { entries: ApproverEntry[] } {
  if (p.status !== waiting) return { error: fail(409, `The package is not waiting for ${what} approval`) };
  const mine = p[list].find((a) => a.user.id === user.id);
  if (!mine) return { error: fail(403, `You are not an approver of this ${what}`) };
  if (mine.approved || mine.rejected) return { error: fail(409, 'You have already decided on this package') };
  return { entries: p[list] };
}

function reject(kind: 'approval' | 'delivery' | 'signing') {
  const path = {
    approval: `${API}/packages/:id/reject`,
    delivery: `${API}/delivery/packages/:id/reject`,
    signing: `${API}/packages/:id/reject-signing`,
  }[kind];
  return http.post(path, async ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const reason = String((await body<Record<string, string>>(request))['rejection-reason'] ?? '').trim();
    if (!reason) return fail(400, 'A rejection reason is required');
    let next: Package;
    if (kind === 'signing') {
      if (p.signer?.id !== g.user.id) return fail(403, 'You are not the signer of this package');
      if (p.status !== 'AWAITING_SIGNATURE') return fail(409, 'The package is not waiting for a signature');
      next = { ...p, status: 'REJECTED', rejectionNote: reason };
      record(next, g.user, 'SIGNING_REJECTED', 'refuses to sign the package', { rejectionNote: reason });
    } else {
      const list = kind === 'delivery' ? 'deliveryApprovers' : 'approvers';
      const v = vote(
        p,
        list,
        g.user,
        kind === 'delivery' ? 'DELIVERY_PENDING' : 'PENDING_APPROVAL',
        kind === 'delivery' ? 'delivery' : 'package',
      );
      if ('error' in v) return v.error;
      next = {
        ...p,
        status: kind === 'delivery' ? 'DELIVERY_REJECTED' : 'REJECTED',
        rejectionNote: reason,
        [list]: v.entries.map((a) =>
          a.user.id === g.user.id ? { ...a, rejected: true, rejectionNote: reason, decidedAt: now() } : a,
        ),
      };
      record(
        next,
        g.user,
        kind === 'delivery' ? 'DELIVERY_REJECTED' : 'REJECTED',
        kind === 'delivery'
          ? 'rejects the delivery; the release engineer may re-deliver'
          : 'rejects the package; it will not be generated',
        { rejectionNote: reason },
      );
    }
    return json({ status: 'REJECTED', message: MSG.rejectionConfirmed, package: pkgBody(save(next)) });
  });
}

export const packageHandlers = [
  // creation (before the generic POST /resources/:type/:stage upload handler)
  http.post(`${API}/resources/:id/generate-package`, async ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const resource = db.resources.find((r) => r.id === String(params.id));
    if (!resource) return fail(404, 'Resource not found');
    const parsed = generatePackageSchema.safeParse(await body(request));
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Bad request');
    const req = parsed.data;
    if (stageOfType(req.packageType) !== resource.resourceStage)
      return fail(
        400,
        `A ${resource.resourceStage.toLowerCase()} resource makes ${resource.resourceStage}_SIGNED or ${resource.resourceStage}_UNSIGNED packages`,
      );
    if (db.packages.some((p) => p.name === req.packageName))
      return fail(409, `Package with name '${req.packageName}' already exists`);
    state.nextId += 1;
    const created: Package = {
      id: `pk-new-${state.nextId}`,
      name: req.packageName,
      type: req.packageType,
      status: 'DRAFT',
      resourceId: resource.id,
      resourceName: resource.name,
      resourceType: resource.resourceType,
      resourceStage: resource.resourceStage,
      initiator: g.user,
      uploadTime: resource.uploadTime,
      note: req.note,
      signed: req.packageType.endsWith('_SIGNED'),
      approvers: [],
      deliveryApprovers: [],
      createdAt: now(),
      updatedAt: now(),
    };
    save(created);
    record(created, g.user, 'PACKAGE_CREATED', `creates a ${created.type} package from ${resource.name}`);
    return json({ package: pkgBody(created) }, 201);
  }),

  // lists
  http.get(`${API}/:stage/packages`, ({ request, params }) => {
    const stage = String(params.stage).toUpperCase();
    // not a stage (e.g. /admin/packages): let the next handler answer
    if (stage !== 'DEV' && stage !== 'RELEASE' && stage !== 'DELIVERY') return undefined;
    const g = gate(request, false);
    if (g.error) return g.error;
    const { rows, nextCursor } = pageOf(
      request,
      stage === 'DELIVERY'
        ? db.packages.filter((p) => p.deliveryApprovers.length > 0)
        : db.packages.filter((p) => p.resourceStage === stage),
    );
    return json({ packages: JSON.stringify(rows), ...(nextCursor ? { nextCursor } : {}) });
  }),
  http.get(`${API}/:stage/packages/approval`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const stage = String(params.stage).toUpperCase();
    const waits = (list: ApproverEntry[]) =>
      list.some((a) => a.user.id === g.user.id && !a.approved && !a.rejected);
    const packages =
      stage === 'DELIVER'
        ? db.packages.filter((p) => p.status === 'DELIVERY_PENDING' && waits(p.deliveryApprovers))
        : db.packages.filter(
            (p) => p.status === 'PENDING_APPROVAL' && p.resourceStage === stage && waits(p.approvers),
          );
    return json({ packages: JSON.stringify(packages) });
  }),
  http.get(`${API}/:stage/packages/signing`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const stage = String(params.stage).toUpperCase();
    const packages = db.packages.filter(
      (p) => p.status === 'AWAITING_SIGNATURE' && p.resourceStage === stage && p.signer?.id === g.user.id,
    );
    return json({ packages: JSON.stringify(packages) });
  }),

  // header
  http.get(`${API}/packages/:id/header`, ({ request, params }) => {
    const g = gate(request, false);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    return json({ header: JSON.stringify(headerOf(p)) });
  }),
  http.patch(`${API}/packages/:id/header`, async ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const refused = draftOwner(p, g.user, 'edit the header');
    if (refused) return refused;
    const { header } = await body<{ header: unknown }>(request);
    let submitted = header;
    if (typeof submitted === 'string') {
      try {
        submitted = JSON.parse(submitted);
      } catch {
        return fail(400, 'header is not valid JSON text');
      }
    }
    const result = validateHeaderUpdate(headerOf(p), submitted);
    if (!result.ok)
      return fail(400, `Invalid header: ${result.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
        headerErrors: result.errors,
      });
    const next = computeFields(result.header, {
      packageType: p.type,
      resourceSizeBytes: resourceOf(p)?.sizeBytes ?? 0,
    });
    state.headers.set(p.id, next);
    record(p, g.user, 'HEADER_EDITED', 'edits the package header');
    return json({ header: JSON.stringify(next) });
  }),

  // DCC
  http.get(`${API}/dcc`, ({ request }) => {
    const g = gate(request, false);
    if (g.error) return g.error;
    return json({ dcc: JSON.stringify(db.dcc) });
  }),
  http.post(`${API}/dcc`, async ({ request }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const parsed = createDccSchema.safeParse(await body(request));
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Bad request');
    state.nextId += 1;
    const dcc: Dcc = {
      ...parsed.data,
      id: `d-new-${state.nextId}`,
      createdAt: now(),
      createdBy: { id: g.user.id, name: g.user.name },
    };
    db.dcc.push(dcc);
    return json({ dccUuid: dcc.id, dcc: JSON.stringify(dcc) }, 201);
  }),
  http.post(`${API}/packages/:id/dcc/:dccId`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const refused = draftOwner(p, g.user, 'attach a DCC');
    if (refused) return refused;
    const dcc = db.dcc.find((d) => d.id === String(params.dccId));
    if (!dcc) return fail(404, 'DCC not found');
    const next = save({ ...p, dccId: dcc.id });
    record(next, g.user, 'DCC_ATTACHED', `attaches DCC ${dcc.deviceId} (${dcc.telemetryType})`);
    return json({ package: pkgBody(next) });
  }),

  // approvers and notify
  http.get(`${API}/packages/:id/approvers`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const excluded = p.status === 'DRAFT' ? [p.initiator.id] : [p.initiator.id, g.user.id];
    const all = candidates(excluded);
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of NON_ADMIN_ROLES) {
      const holders = all.filter((u) => u.userRole === role);
      if (holders.length) byRole[role] = holders;
    }
    const withSigners = new URL(request.url).searchParams.get('signers') === 'true';
    return json({
      approvers: JSON.stringify(byRole),
      ...(withSigners
        ? { signers: JSON.stringify(all.filter((u) => u.userRole === 'SW_FW_RELEASE_ENGINEER')) }
        : {}),
    });
  }),
  http.post(`${API}/packages/:id/notify-approvers`, async ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const refused = draftOwner(p, g.user, 'notify approvers');
    if (refused) return refused;
    if (!p.dccId) return fail(409, 'Attach a DCC to the package before notifying approvers');
    const req = await body<{ approvers: { role: string; id: string }[]; signer?: string }>(request);
    const all = candidates([]);
    const problem = checkApproverSelection(req.approvers ?? [], all, {
      excluded: [p.initiator.id],
      requireMinRoles: p.type === 'RELEASE_SIGNED' ? MIN_SIGNED_RELEASE_ROLES : undefined,
    });
    if (problem) return fail(400, problem);
    let signer: UserRef | undefined;
    if (p.signed) {
      const signers = all.filter((u) => u.userRole === 'SW_FW_RELEASE_ENGINEER' && u.id !== p.initiator.id);
      if (signers.length === 0) return fail(400, MSG.noSigners);
      signer = signers.find((s) => s.id === req.signer);
      if (!signer) return fail(400, 'Choose a signer for a signed package');
    } else if (req.signer) return fail(400, 'Only signed packages have a signer');
    const approvers = (req.approvers ?? []).map((s) => {
      const u = all.find((c) => c.id === s.id) as UserRef;
      return { user: u, role: u.userRole, approved: false, rejected: false };
    });
    const next = save({ ...p, status: 'PENDING_APPROVAL', approvers, signer });
    record(next, g.user, 'APPROVAL_REQUESTED', 'sends the package for approval', {
      approvers: approvers.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role })),
      signer: signer ? { id: signer.id, name: signer.name } : undefined,
    });
    return json({ status: 'NOTIFIED', message: MSG.notified, package: pkgBody(next) });
  }),
  http.post(`${API}/delivery/packages/:id/notify-approvers`, async ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    if (g.user.userRole !== 'SW_FW_RELEASE_ENGINEER') return fail(403, API_ERR.forbidden);
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    if (p.resourceStage !== 'RELEASE') return fail(409, 'Only release packages are delivered');
    if (!DELIVERABLE.includes(p.status))
      return fail(409, 'The package must be approved (and signed, if signed) before delivery');
    const req = await body<{ approvers: { role: string; id: string }[] }>(request);
    const all = candidates([]);
    const problem = checkApproverSelection(req.approvers ?? [], all, {
      excluded: [p.initiator.id, g.user.id],
    });
    if (problem) return fail(400, problem);
    const deliveryApprovers = (req.approvers ?? []).map((s) => {
      const u = all.find((c) => c.id === s.id) as UserRef;
      return { user: u, role: u.userRole, approved: false, rejected: false };
    });
    const redeliver = p.status === 'DELIVERY_REJECTED';
    const next = save({ ...p, status: 'DELIVERY_PENDING', deliveryApprovers, rejectionNote: undefined });
    record(
      next,
      g.user,
      redeliver ? 'REDELIVERED' : 'DELIVERY_STARTED',
      'starts delivery of the approved release package to devices',
      {
        approvers: deliveryApprovers.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role })),
      },
    );
    return json({ status: 'NOTIFIED', message: MSG.notified, package: pkgBody(next) });
  }),

  // decisions
  http.post(`${API}/packages/:id/approve`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const v = vote(p, 'approvers', g.user, 'PENDING_APPROVAL', 'package');
    if ('error' in v) return v.error;
    const approvers = v.entries.map((a) =>
      a.user.id === g.user.id ? { ...a, approved: true, decidedAt: now() } : a,
    );
    let next = save({ ...p, approvers });
    record(
      next,
      g.user,
      'APPROVED',
      'approves the package: its content, header and DCC are fit for the next step',
    );
    if (approvers.some((a) => !a.approved))
      return json(
        { outcome: 'WAITING_FOR_APPROVALS', message: MSG.approvedWaiting, package: pkgBody(next) },
        202,
      );
    if (p.signed) {
      next = save({ ...next, status: 'AWAITING_SIGNATURE' });
      return json({
        outcome: 'WAITING_FOR_SIGNING',
        message: MSG.approvedWaitingSigning,
        package: pkgBody(next),
      });
    }
    const link = `packages/${p.id}/${now().replace(/[:.]/g, '-')}-${fileNameOf(p)}`;
    next = save({ ...next, status: 'APPROVED', linkToS3: link });
    record(next, g.user, 'PACKAGE_GENERATED', 'every approver approved; the XML package is generated');
    return json({ outcome: 'GENERATED', generatedXmlS3Link: link, package: pkgBody(next) });
  }),
  http.post(`${API}/delivery/packages/:id/approve`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    const v = vote(p, 'deliveryApprovers', g.user, 'DELIVERY_PENDING', 'delivery');
    if ('error' in v) return v.error;
    const deliveryApprovers = v.entries.map((a) =>
      a.user.id === g.user.id ? { ...a, approved: true, decidedAt: now() } : a,
    );
    let next = save({ ...p, deliveryApprovers });
    record(next, g.user, 'DELIVERY_APPROVED', 'approves delivery of the package to devices');
    if (deliveryApprovers.some((a) => !a.approved))
      return json(
        { outcome: 'WAITING_FOR_APPROVALS', message: MSG.approvedWaiting, package: pkgBody(next) },
        202,
      );
    next = save({
      ...next,
      status: 'DELIVERED',
      mLifePath: p.linkToS3 ?? `packages/${p.id}/${fileNameOf(p)}`,
    });
    record(next, g.user, 'DELIVERED', 'every delivery approver approved; the package is delivered');
    return json({ outcome: 'DELIVERED', mLifePath: next.mLifePath, package: pkgBody(next) });
  }),
  http.post(`${API}/packages/:id/generate-signed`, ({ request, params }) => {
    const g = gate(request);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    if (p.signer?.id !== g.user.id) return fail(403, 'You are not the signer of this package');
    if (p.status !== 'AWAITING_SIGNATURE') return fail(409, 'The package is not waiting for a signature');
    const link = `packages/${p.id}/${now().replace(/[:.]/g, '-')}-${fileNameOf(p)}`;
    const next = save({ ...p, status: 'SIGNED', linkToS3: link, mLifePath: link });
    record(
      next,
      g.user,
      'SIGNED',
      'signs the package as the release engineer: it is the package approved for devices',
    );
    return json({ outcome: 'SIGNED', mLifePath: link, package: pkgBody(next) });
  }),
  reject('signing'),
  reject('approval'),
  reject('delivery'),

  // history and download
  http.get(`${API}/packages/:id/history`, ({ request, params }) => {
    const g = gate(request, false);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    return json({ history: JSON.stringify(historyOf(p)), chainIntact: true, brokenAtSeq: null });
  }),
  http.get(`${API}/packages/:id`, async ({ request, params }) => {
    const g = gate(request, false);
    if (g.error) return g.error;
    const p = find(params.id);
    if (!p) return fail(404, 'Package not found');
    if (!GENERATED.includes(p.status))
      return fail(
        409,
        'The package has no generated file yet: it is generated when every approver has approved (and signed, if signed)',
      );
    const bytes = new TextEncoder().encode(xmlOf(p));
    const facts = { fileName: fileNameOf(p), sizeBytes: bytes.length, sha256: await sha256Hex(bytes) };
    if (LARGE_PACKAGE_IDS.includes(p.id))
      return json({
        ...facts,
        downloadUrl: new URL(`/mock-storage/artefacts/${p.id}.xml`, location.href).toString(),
      });
    return json({ ...facts, base64EncodedXMLPackage: btoa(String.fromCharCode(...bytes)) });
  }),
  http.get('/mock-storage/artefacts/:file', ({ params }) => {
    ensure();
    const p = find(String(params.file).replace(/\.xml$/, ''));
    if (!p)
      return new HttpResponse(
        '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        {
          status: 404,
          headers: { 'Content-Type': 'application/xml' },
        },
      );
    const bytes = new TextEncoder().encode(xmlOf(p));
    return new HttpResponse(bytes, {
      headers: { 'Content-Type': 'application/xml', 'Content-Length': String(bytes.length) },
    });
  }),
];
