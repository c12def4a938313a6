import { dccValuesOf, type Package, updateDraftSchema } from '@shared/api/contracts/packages';
import { computeFields, validateHeaderUpdate } from '@shared/domain/header/header-rules';
import { defaultPackageName, freeName } from '@shared/domain/package-names';
import { isSignedType, stageOfType } from '@shared/domain/package-rules';
import { AUDIT_MEANING, PACKAGE_ERR } from '@shared/domain/package-texts';
import { db } from './db';
import { body, fail, json, on } from './mock-http';
import { draftFor, gateUser, headerOf, pkgBody, record, resourceOf, save, setHeader } from './package-store';

/**
 * Mock backend of issue 25 (never lose, never re-type): step 1 of a draft again, the earlier packages a
 * new one may start from, and the copy (`startFrom`, used by the mock's generatePackage), answering as
 * lambdas/services/packages/{draft-editing,start-from}.ts do.
 */

const DECIDED = new Set([
  'REJECTED',
  'APPROVED',
  'AWAITING_SIGNATURE',
  'GENERATING',
  'SIGNED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
]);

/** The copy of `source` into the new package `created` (its header and DCC choice), or the 400. */
export function startFrom(created: Package, sourceId: string): Response | Package {
  const source = db.packages.find((p) => p.id === sourceId);
  if (!source) return fail(400, PACKAGE_ERR.sourceNotFound(sourceId));
  if (source.resourceType !== created.resourceType)
    return fail(400, PACKAGE_ERR.sourceOtherType(source.resourceType, created.resourceType));
  const template = headerOf(created);
  const result = validateHeaderUpdate(template, headerOf(source));
  if (!result.ok) return fail(400, 'The header of that package cannot be copied');
  const header = computeFields(result.header, {
    packageType: created.type,
    resourceSizeBytes: resourceOf(created)?.sizeBytes ?? 0,
  });
  setHeader(created, header);
  const before = new Map(template.fields.map((f) => [f.name, JSON.stringify(f.value)]));
  const fields = header.fields
    .filter((f) => f.type !== 'fixed' && before.get(f.name) !== JSON.stringify(f.value))
    .map((f) => f.name);
  const dcc = source.dccId ? db.dcc.find((d) => d.id === source.dccId) : undefined;
  return {
    ...created,
    ...(dcc ? { dccId: dcc.id, dcc: dccValuesOf(dcc) } : {}),
    copiedFrom: {
      id: source.id,
      name: source.name,
      status: source.status,
      fields,
      ...(dcc ? { dcc: { dccId: dcc.id, deviceId: dcc.deviceId, telemetryType: dcc.telemetryType } } : {}),
    },
  };
}

export const packageDraftHandlers = [
  on('packageSources', ({ request, params }) => {
    const g = gateUser(request);
    if (g.error) return g.error;
    const resource = db.resources.find((r) => r.id === String(params.id));
    if (!resource) return fail(404, PACKAGE_ERR.resourceNotFound);
    const own = db.packages
      .filter((p) => p.resourceId === resource.id)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const proposed = own.find((p) => DECIDED.has(p.status));
    return json({
      packages: JSON.stringify(
        own.map((p) => ({
          id: p.id,
          name: p.name,
          status: p.status,
          type: p.type,
          createdAt: p.createdAt,
          updatedAt: p.updatedAt,
          initiatorName: p.initiator.name,
          ...(p.dcc?.deviceId ? { deviceId: p.dcc.deviceId } : {}),
        })),
      ),
      proposedId: proposed?.id ?? null,
      freeName: freeName(
        defaultPackageName(resource),
        own.map((p) => p.name),
      ),
    });
  }),
  on('updateDraft', async ({ request, params }) => {
    const g = draftFor(request, params.id, 'change the draft');
    if (g.error) return g.error;
    const parsed = updateDraftSchema.safeParse(await body(request));
    if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Bad request');
    const req = parsed.data;
    if (stageOfType(req.packageType) !== g.p.resourceStage)
      return fail(400, PACKAGE_ERR.wrongStage(g.p.resourceStage));
    if (db.packages.some((p) => p.id !== g.p.id && p.name.toLowerCase() === req.packageName.toLowerCase()))
      return fail(409, PACKAGE_ERR.nameTaken(req.packageName));
    const next = save({
      ...g.p,
      name: req.packageName,
      note: req.note,
      type: req.packageType,
      signed: isSignedType(req.packageType),
    });
    setHeader(
      next,
      computeFields(headerOf(g.p), {
        packageType: next.type,
        resourceSizeBytes: resourceOf(next)?.sizeBytes ?? 0,
      }),
    );
    record(next, g.user, 'DRAFT_EDITED', AUDIT_MEANING.editDraft);
    return json({ package: pkgBody(next) });
  }),
];
