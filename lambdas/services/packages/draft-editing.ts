import { dccValuesOf, type Package } from '../../../shared/api/contracts/packages';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import { actorFor, isActor, type PackageAction } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';
import { toPackage } from './package-deps';

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
    const next = { ...p, status, header, updatedAt: core.now().toISOString(), version: p.version + 1 };
    await core.saveOrConflict(next, { version: p.version, status: p.status });
    await core.audit(next, user, 'HEADER_EDITED', AUDIT_MEANING.editHeader);
    return header;
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
    await core.saveOrConflict(next, { version: p.version, status: p.status });
    await core.audit(next, user, 'DCC_ATTACHED', AUDIT_MEANING.attachDcc(dcc.deviceId, dcc.telemetryType), {
      dccId,
    });
    return toPackage(next);
  }
}
