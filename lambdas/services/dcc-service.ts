import { randomUUID } from 'node:crypto';
import type { CreateDcc, Dcc } from '../../shared/api/contracts/dcc';
import { ConflictError, NotFoundError } from '../../shared/domain/errors';
import type { AuditEvent } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { DccRepository } from '../ports/dcc-repository';
import type { PackageRepository } from '../ports/package-repository';
import type { UserRecord } from '../ports/user-repository';
import { byActor } from './packages/audit-texts';

export interface DccServiceDeps {
  dccs: DccRepository;
  /** which packages use a DCC: a DCC in use is not deleted */
  packages: Pick<PackageRepository, 'listByDcc'>;
  clock: Clock;
}

/** Device configuration certificates (spec §2.5): created by engineers, attached to drafts, deleted by admins. */
export class DccService {
  constructor(private readonly d: DccServiceDeps) {}

  /** The event of a change of `dcc`, committed with the change (decision 283). */
  private event(
    actor: UserRecord,
    dcc: Dcc,
    action: string,
    meaning: string,
    details?: Record<string, unknown>,
  ): AuditEvent {
    return {
      subject: `DCC#${dcc.id}`,
      action,
      meaning,
      ...byActor(actor),
      ...(details ? { details } : {}),
    };
  }

  async create(user: UserRecord, req: CreateDcc): Promise<Dcc> {
    const dcc: Dcc = {
      ...req,
      id: randomUUID(),
      createdAt: this.d.clock.now().toISOString(),
      createdBy: { id: user.id, name: user.name },
    };
    await this.d.dccs.create(dcc, {
      events: [this.event(user, dcc, 'DCC_CREATED', `creates DCC ${dcc.deviceId}`, { ...req })],
    });
    return dcc;
  }

  list(): Promise<Dcc[]> {
    return this.d.dccs.list();
  }

  /** Deletes DCCs no package uses; an unknown id or a DCC in use refuses the whole call. */
  async delete(admin: UserRecord, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = await Promise.all(unique.map((id) => this.d.dccs.get(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length) throw new NotFoundError(`No DCC with id ${missing.join(', ')}`);
    for (const id of unique) {
      const users = await this.d.packages.listByDcc(id);
      if (users.length) {
        throw new ConflictError(
          `DCC is attached to packages ${users.map((p) => p.name).join(', ')}: delete those packages first`,
        );
      }
    }
    // each DCC with its event; one deleted meanwhile by another admin was recorded by them
    for (const dcc of found as Dcc[])
      await this.d.dccs.delete(dcc.id, {
        events: [this.event(admin, dcc, 'DCC_DELETED', `deletes DCC ${dcc.deviceId}`)],
      });
  }
}
