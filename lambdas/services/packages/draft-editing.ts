import { isDeepStrictEqual } from 'node:util';
import { dccValuesOf, type Package, type UpdateDraft } from '../../../shared/api/contracts/packages';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import { actorFor, isActor, type PackageAction } from '../../../shared/domain/package-lifecycle';
import { isSignedType, stageOfType } from '../../../shared/domain/package-rules';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';
import { toPackage } from './package-deps';
import { changedFields } from './start-from';

/**
 * Only the initiator acts on a draft, and only while it is one: `what` names the action in the refusal
 * ("Only the package's initiator can edit the header"). Returns the status the action leads to.
 */
export function assertDraftOwner(
  core: PackageCore,
  p: PackageRecord,
  user: UserRecord,
  action: PackageAction,
  what: string,
) {
  if (!isActor(p, user, actorFor(action))) throw new ForbiddenError(PACKAGE_ERR.notInitiator(what));
  return core.nextStatus(p, action, PACKAGE_ERR.notDraft(what));
}

/** The initiator's edits of a draft: its header and its DCC. */
export class DraftEditing {
  constructor(private readonly core: PackageCore) {}

  async getHeader(id: string): Promise<unknown> {
    return (await this.core.mustGet(id)).header;
  }

  async updateHeader(user: UserRecord, id: string, submitted: unknown): Promise<unknown> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = assertDraftOwner(core, p, user, 'editHeader', 'edit the header');
    const resource = await core.d.resources.getById(p.resourceId);
    if (!resource) throw new ConflictError('The resource of this package was deleted');
    const header = core.d.header.update(p.header, submitted, p, resource);
    // Continue (and autosave) resend the header as it stands: an unchanged one is no edit, so nothing
    // is written and the record gains no empty "Header edited" row; the answer is the same as for a change
    if (status === p.status && isDeepStrictEqual(header, p.header)) return header;
    const next = { ...p, status, header, updatedAt: core.now().toISOString(), version: p.version + 1 };
    // the editor saves as the user types: each event names the values that changed
    const event = core.event(next, user, 'HEADER_EDITED', AUDIT_MEANING.editHeader, {
      fields: changedFields(p.header, header),
    });
    await core.saveOrConflict(next, { version: p.version, status: p.status }, { events: [event] });
    return header;
  }

  /**
   * step 1 again (Back to step 1, then Continue) updates the draft's name, note and sign flag
   * instead of creating a second package; a new type recomputes the header's Type and CRC. The name claim
   * moves with it; the user's own draft never clashes with itself.
   */
  async updateDraft(user: UserRecord, id: string, req: UpdateDraft): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = assertDraftOwner(core, p, user, 'editHeader', 'change the draft');
    if (stageOfType(req.packageType) !== p.resourceStage)
      throw new BadRequestError(PACKAGE_ERR.wrongStage(p.resourceStage));
    const resource = await core.d.resources.getById(p.resourceId);
    if (!resource) throw new ConflictError('The resource of this package was deleted');
    const typed = { ...p, type: req.packageType };
    const next = {
      ...typed,
      status,
      name: req.packageName,
      note: req.note,
      signed: isSignedType(req.packageType),
      header:
        req.packageType === p.type ? p.header : core.d.header.update(p.header, p.header, typed, resource),
      updatedAt: core.now().toISOString(),
      version: p.version + 1,
    };
    const event = core.event(next, user, 'DRAFT_EDITED', AUDIT_MEANING.editDraft, {
      ...(p.name !== next.name ? { name: { from: p.name, to: next.name } } : {}),
      ...(p.type !== next.type ? { type: { from: p.type, to: next.type } } : {}),
      ...(p.note !== next.note ? { noteChanged: true } : {}),
    });
    const saved = await core.d.packages.renameDraft(next, { version: p.version, status: p.status }, p.name, {
      events: [event],
    });
    if (saved === 'nameTaken') throw new ConflictError(PACKAGE_ERR.nameTaken(next.name));
    if (saved === 'moved') throw new ConflictError('The package changed meanwhile; reload it and try again');
    return toPackage(next);
  }

  async attachDcc(user: UserRecord, id: string, dccId: string): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = assertDraftOwner(core, p, user, 'attachDcc', 'attach a DCC');
    const dcc = await core.d.dccs.get(dccId);
    if (!dcc) throw new NotFoundError(PACKAGE_ERR.dccNotFound);
    const next = {
      ...p,
      status,
      dccId,
      dcc: dccValuesOf(dcc),
      updatedAt: core.now().toISOString(),
      version: p.version + 1,
    };
    const event = core.event(
      next,
      user,
      'DCC_ATTACHED',
      AUDIT_MEANING.attachDcc(dcc.deviceId, dcc.telemetryType),
      { dccId },
    );
    await core.saveOrConflict(next, { version: p.version, status: p.status }, { events: [event] });
    return toPackage(next);
  }
}
