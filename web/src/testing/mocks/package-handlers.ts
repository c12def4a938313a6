import { createDccSchema, type Dcc } from '@shared/api/contracts/dcc';
import {
  type ApproverEntry,
  dccValuesOf,
  generatePackageSchema,
  type Package,
  resourceFileOf,
  type UserRef,
} from '@shared/api/contracts/packages';
import { computeFields, validateHeaderUpdate } from '@shared/domain/header/header-rules';
import { DCC_LIST } from '@shared/domain/list-columns';
import {
  ACTOR_ROLE,
  deliveryActionFrom,
  isDeliverable,
  isEditable,
  isWaitingForApproval,
  isWaitingForDelivery,
  isWaitingForSignature,
  nextStatus,
} from '@shared/domain/package-lifecycle';
import {
  checkApproverSelection,
  isDeliverableType,
  MIN_SIGNED_RELEASE_ROLES,
  stageOfType,
} from '@shared/domain/package-rules';
import { AUDIT_MEANING, PACKAGE_ERR } from '@shared/domain/package-texts';
import { NON_ADMIN_ROLES, type Role } from '@shared/domain/roles';
import { API_ERR, MSG } from '@shared/messages';
import { db } from './db';
import { metadataPinOf } from './fixtures';
import { body, fail, json, on } from './mock-http';
import { decisionHandlers } from './package-decision-handlers';
import { startFrom } from './package-draft-handlers';
import {
  candidates,
  draftFor,
  gateUser,
  headerOf,
  nextMockId,
  now,
  packageFor,
  packageOr404,
  pkgBody,
  record,
  resourceOf,
  save,
  setHeader,
} from './package-store';
import { pageOf, tableViewOf, viewOf } from './paging';
import { signedBody } from './signature';

/**
 * Mock backend of the package lifecycle (issue 6) for mock mode and the component tests: creation,
 * header, DCC, approvers and notify here; decisions, signing, delivery, history and download in
 * package-decision-handlers.ts. Statuses come from the lifecycle table (shared/domain/package-lifecycle.ts),
 * paths from the route table, following DESIGN §2 closely enough that the screens meet every answer the
 * real API gives.
 */

const RELEASE_ENGINEER = ACTOR_ROLE.releaseEngineer;

/** The chosen approvers of a selection, as entries that have not decided yet. */
const entriesOf = (selection: { id: string }[], all: UserRef[]): ApproverEntry[] =>
  selection.map((s) => {
    const u = all.find((c) => c.id === s.id) as UserRef;
    return { user: u, role: u.userRole, approved: false, rejected: false };
  });

const listed = (entries: ApproverEntry[]) =>
  entries.map((a) => ({ id: a.user.id, name: a.user.name, role: a.role }));

export const packageHandlers = [
  // creation (before the generic POST /resources/:type/:stage upload handler)
  on('generatePackage', async ({ request, params }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    const resource = db.resources.find((r) => r.id === String(params.id));
    if (!resource) return fail(404, PACKAGE_ERR.resourceNotFound);
    const parsed = generatePackageSchema.safeParse(await body(request));
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Bad request');
    const req = parsed.data;
    if (stageOfType(req.packageType) !== resource.resourceStage)
      return fail(400, PACKAGE_ERR.wrongStage(resource.resourceStage));
    if (db.packages.some((p) => p.name === req.packageName))
      return fail(409, PACKAGE_ERR.nameTaken(req.packageName));
    const fresh: Package = {
      id: nextMockId('pk-new'),
      name: req.packageName,
      type: req.packageType,
      status: 'DRAFT',
      resourceId: resource.id,
      resourceName: resource.name,
      resourceType: resource.resourceType,
      resourceStage: resource.resourceStage,
      resourceFile: resourceFileOf(
        resource,
        resource.resourceType === 'MODEL' ? metadataPinOf(resource) : undefined,
      ),
      initiator: g.user,
      uploadTime: resource.uploadTime,
      note: req.note,
      signed: req.packageType.endsWith('_SIGNED'),
      approvers: [],
      deliveryApprovers: [],
      createdAt: now(),
      updatedAt: now(),
    };
    // issue 25: start from an earlier package (package-draft-handlers.ts)
    const copied = req.fromPackageId ? startFrom(fresh, req.fromPackageId) : fresh;
    if (copied instanceof Response) return copied;
    const created = copied;
    save(created);
    record(created, g.user, 'PACKAGE_CREATED', AUDIT_MEANING.created(created.type, resource.name));
    return json({ package: pkgBody(created) }, 201);
  }),

  // lists
  on('listPackages', ({ request, params }) => {
    const stage = String(params.stage).toUpperCase();
    // not a stage (e.g. /admin/packages): let the next handler answer
    if (stage !== 'DEV' && stage !== 'RELEASE' && stage !== 'DELIVERY') return undefined;
    const g = gateUser(request, false);
    if (g.error) return g.error;
    const list =
      stage === 'DELIVERY'
        ? db.packages.filter((p) => p.deliveryApprovers.length > 0)
        : db.packages.filter((p) => p.resourceStage === stage);
    // the home page's own drafts (issue 24)
    if (new URL(request.url).searchParams.get('drafts') === 'mine')
      return json({
        packages: JSON.stringify(list.filter((p) => p.status === 'DRAFT' && p.initiator.id === g.user.id)),
      });
    const view = viewOf(request, list);
    if (view) return json({ packages: JSON.stringify(view.rows), total: view.total });
    const { rows, nextCursor } = pageOf(request, list);
    return json({ packages: JSON.stringify(rows), ...(nextCursor ? { nextCursor } : {}) });
  }),
  on('listApprovalPackages', ({ request, params }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    const stage = String(params.stage).toUpperCase();
    const waits = (list: ApproverEntry[]) =>
      list.some((a) => a.user.id === g.user.id && !a.approved && !a.rejected);
    const packages =
      stage === 'DELIVER'
        ? db.packages.filter((p) => isWaitingForDelivery(p.status) && waits(p.deliveryApprovers))
        : db.packages.filter(
            (p) => isWaitingForApproval(p.status) && p.resourceStage === stage && waits(p.approvers),
          );
    return json({ packages: JSON.stringify(packages) });
  }),
  on('listSigningPackages', ({ request, params }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    const stage = String(params.stage).toUpperCase();
    const packages = db.packages.filter(
      (p) => isWaitingForSignature(p.status) && p.resourceStage === stage && p.signer?.id === g.user.id,
    );
    return json({ packages: JSON.stringify(packages) });
  }),

  // header
  on('getHeader', ({ request, params }) => {
    const g = packageFor(request, params.id, false);
    if (g.error) return g.error;
    const { p } = g;
    return json({ header: JSON.stringify(headerOf(p)) });
  }),
  on('updateHeader', async ({ request, params }) => {
    const g = draftFor(request, params.id, 'edit the header');
    if (g.error) return g.error;
    const { p } = g;
    const { header } = await body<{ header: unknown }>(request);
    let submitted = header;
    if (typeof submitted === 'string') {
      try {
        submitted = JSON.parse(submitted);
      } catch {
        return fail(400, PACKAGE_ERR.headerNotJson);
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
    setHeader(p, next);
    record(p, g.user, 'HEADER_EDITED', AUDIT_MEANING.editHeader);
    return json({ header: JSON.stringify(next) });
  }),

  // DCC
  on('listDcc', ({ request }) => {
    const g = gateUser(request, false);
    if (g.error) return g.error;
    const view = tableViewOf(request, db.dcc, DCC_LIST);
    if (view) return json({ dcc: JSON.stringify(view.rows), total: view.total });
    return json({ dcc: JSON.stringify(db.dcc) });
  }),
  on('createDcc', async ({ request }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    const parsed = createDccSchema.safeParse(await body(request));
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Bad request');
    const dcc: Dcc = {
      ...parsed.data,
      id: nextMockId('d-new'),
      createdAt: now(),
      createdBy: { id: g.user.id, name: g.user.name },
    };
    db.dcc.push(dcc);
    return json({ dccUuid: dcc.id, dcc: JSON.stringify(dcc) }, 201);
  }),
  on('attachDcc', ({ request, params }) => {
    const g = draftFor(request, params.id, 'attach a DCC');
    if (g.error) return g.error;
    const { p } = g;
    const dcc = db.dcc.find((d) => d.id === String(params.dccId));
    if (!dcc) return fail(404, PACKAGE_ERR.dccNotFound);
    const next = save({ ...p, dccId: dcc.id, dcc: dccValuesOf(dcc) });
    record(next, g.user, 'DCC_ATTACHED', AUDIT_MEANING.attachDcc(dcc.deviceId, dcc.telemetryType));
    return json({ package: pkgBody(next) });
  }),

  // approvers and notify
  on('listApprovers', ({ request, params }) => {
    const g = packageFor(request, params.id);
    if (g.error) return g.error;
    const { p } = g;
    const excluded = isEditable(p.status) ? [p.initiator.id] : [p.initiator.id, g.user.id];
    const all = candidates(excluded);
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of NON_ADMIN_ROLES) {
      const holders = all.filter((u) => u.userRole === role);
      if (holders.length) byRole[role] = holders;
    }
    const withSigners = new URL(request.url).searchParams.get('signers') === 'true';
    return json({
      approvers: JSON.stringify(byRole),
      ...(withSigners ? { signers: JSON.stringify(all.filter((u) => u.userRole === RELEASE_ENGINEER)) } : {}),
    });
  }),
  on('notifyApprovers', async ({ request, params }) => {
    const g = draftFor(request, params.id, 'notify approvers');
    if (g.error) return g.error;
    const { p } = g;
    if (!p.dccId) return fail(409, PACKAGE_ERR.dccMissing);
    const req = await body<{ approvers: { role: string; id: string }[]; signer?: string }>(request);
    const all = candidates([]);
    const problem = checkApproverSelection(req.approvers ?? [], all, {
      excluded: [p.initiator.id],
      requireMinRoles: p.type === 'RELEASE_SIGNED' ? MIN_SIGNED_RELEASE_ROLES : undefined,
    });
    if (problem) return fail(400, problem);
    let signer: UserRef | undefined;
    if (p.signed) {
      const signers = all.filter((u) => u.userRole === RELEASE_ENGINEER && u.id !== p.initiator.id);
      if (signers.length === 0) return fail(400, MSG.noSigners);
      signer = signers.find((s) => s.id === req.signer);
      if (!signer) return fail(400, PACKAGE_ERR.signerMissing);
    } else if (req.signer) return fail(400, PACKAGE_ERR.signerUnexpected);
    const approvers = entriesOf(req.approvers ?? [], all);
    const status = nextStatus(p.status, 'notify') ?? p.status;
    const next = save({ ...p, status, approvers, signer });
    record(next, g.user, 'APPROVAL_REQUESTED', AUDIT_MEANING.notify, {
      approvers: listed(approvers),
      signer: signer ? { id: signer.id, name: signer.name } : undefined,
    });
    return json({ status: 'NOTIFIED', message: MSG.notified, package: pkgBody(next) });
  }),
  on('notifyDeliveryApprovers', async ({ request, params }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    if (g.user.userRole !== RELEASE_ENGINEER) return fail(403, API_ERR.forbidden);
    const { p, error } = packageOr404(params.id);
    if (error) return error;
    if (p.resourceStage !== 'RELEASE') return fail(409, PACKAGE_ERR.releaseOnly);
    if (!isDeliverableType(p)) return fail(409, PACKAGE_ERR.unsignedNotDeliverable);
    if (!isDeliverable(p.status)) return fail(409, PACKAGE_ERR.notDeliverable);
    const action = deliveryActionFrom(p.status) === 'redeliver' ? 'redeliver' : 'deliver';
    const s = await signedBody(request, g.user, action);
    if ('error' in s) return s.error;
    const req = s.body as { approvers?: { role: string; id: string }[] };
    const all = candidates([]);
    const problem = checkApproverSelection(req.approvers ?? [], all, {
      excluded: [p.initiator.id, g.user.id],
    });
    if (problem) return fail(400, problem);
    const deliveryApprovers = entriesOf(req.approvers ?? [], all);
    const redeliver = deliveryActionFrom(p.status) === 'redeliver';
    const status = nextStatus(p.status, redeliver ? 'redeliver' : 'deliver') ?? p.status;
    const next = save({ ...p, status, deliveryApprovers, deliverer: g.user, rejectionNote: undefined });
    record(next, g.user, redeliver ? 'REDELIVERED' : 'DELIVERY_STARTED', AUDIT_MEANING.deliver, {
      approvers: listed(deliveryApprovers),
      signature: s.signature,
    });
    return json({ status: 'NOTIFIED', message: MSG.notified, package: pkgBody(next) });
  }),

  ...decisionHandlers,
];
