import type { Package } from '../../../shared/api/contracts/packages';
import { ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { actorFor, isActor, type PackageAction, statusAfter } from '../../../shared/domain/package-lifecycle';
import { AUDIT_MEANING, PACKAGE_ERR } from '../../../shared/domain/package-texts';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { signatureDetails } from './audit-texts';
import { Generation } from './generation';
import type { DecisionDetails } from './package-changes';
import type { PackageCore } from './package-core';
import { toPackage } from './package-deps';
import { rejectionMail } from './voting-round';

/** The signer signs a fully approved signed package (the XML is generated then), or refuses to. */
export class Signing {
  constructor(private readonly core: PackageCore) {}

  /** Only the chosen signer, and only while the package waits for the signature; the status it moves to. */
  private assertSigner(p: PackageRecord, user: UserRecord, action: PackageAction) {
    if (!isActor(p, user, actorFor(action))) throw new ForbiddenError(PACKAGE_ERR.notSigner);
    return this.core.nextStatus(p, action, PACKAGE_ERR.notWaitingForSignature);
  }

  /** `seen`: the comparison the decision was taken on, for its audit record (decision 266). */
  async sign(user: UserRecord, id: string, seen?: DecisionDetails): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const generation = new Generation(core);
    // the signer's retry after a crash between the signature's commit and the generation's hand-over
    const resumed = p.signed ? await generation.resume(p, user) : null;
    if (resumed) return toPackage(resumed);
    this.assertSigner(p, user, 'sign');
    // the signed XML is generated off the request path (decision 160); the signature is recorded now,
    // with the GENERATING state (one transaction, decision 283); its time is the generation's
    // requestedAt: the XML's signature record carries the same
    const next = await generation.begin(p, user, (n) => [
      core.event(n, user, 'SIGNED', AUDIT_MEANING.sign, {
        ...signatureDetails('sign', user, n.generation!.requestedAt, n.type, seen?.signatureMethod),
        ...seen,
      }),
    ]);
    if (!next) throw await this.lostSigningRace(id);
    return toPackage(next);
  }

  async rejectSigning(user: UserRecord, id: string, note: string, seen?: DecisionDetails): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = this.assertSigner(p, user, 'rejectSigning');
    const at = core.now().toISOString();
    const next: PackageRecord = {
      ...p,
      status,
      rejectionNote: note,
      updatedAt: at,
      version: p.version + 1,
    };
    const mails = [rejectionMail(core, next, next.version, 'SIGNING_REJECTED', user, note)];
    const event = core.event(next, user, 'SIGNING_REJECTED', AUDIT_MEANING.rejectSigning, {
      rejectionNote: note,
      ...signatureDetails('rejectSigning', user, at, undefined, seen?.signatureMethod),
      ...seen,
    });
    const saved = await core.d.packages.save(
      next,
      { version: p.version, status: p.status },
      { removeAll: true, mails, events: [event] },
    );
    if (!saved) throw await this.lostSigningRace(id);
    return toPackage(next);
  }

  /**
   * A sign or reject-signing that lost its race (the other committed first): the caller gets a 409 saying
   * what happened; nothing of the loser was written (one transaction, decision 283).
   */
  private async lostSigningRace(id: string): Promise<ConflictError> {
    const current = await this.core.d.packages.get(id);
    if (current?.status === statusAfter('sign') || current?.status === 'SIGNED')
      return new ConflictError('The package was signed meanwhile; reload it to see the signed package');
    if (current?.status === statusAfter('rejectSigning'))
      return new ConflictError(
        'Signing of this package was rejected meanwhile; it cannot be signed or rejected again',
      );
    return new ConflictError('The package changed meanwhile; reload it');
  }
}
