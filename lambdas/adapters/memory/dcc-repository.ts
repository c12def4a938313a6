import type { Dcc } from '../../../shared/api/contracts/dcc';
import type { Recorded } from '../../ports/audit-log';
import { systemClock } from '../../ports/clock';
import type { DccRepository } from '../../ports/dcc-repository';
import { MemoryAuditLog } from './audit-log';

/**
 * DCCs in memory; like the DynamoDB adapter, an id is created once, the list is newest first, and each
 * write records its events with it (decision 283).
 */
export class MemoryDccRepository implements DccRepository {
  private readonly byId = new Map<string, Dcc>();

  constructor(readonly audit = new MemoryAuditLog(systemClock)) {}

  async create(dcc: Dcc, commit: Recorded = {}): Promise<void> {
    if (this.byId.has(dcc.id)) throw new Error(`DCC ${dcc.id} exists`);
    this.byId.set(dcc.id, { ...dcc });
    this.audit.record(commit.events);
  }

  async get(id: string): Promise<Dcc | null> {
    const d = this.byId.get(id);
    return d ? { ...d } : null;
  }

  async list(): Promise<Dcc[]> {
    return [...this.byId.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((d) => ({ ...d }));
  }

  async delete(id: string, commit: Recorded = {}): Promise<'deleted' | 'missing'> {
    if (!this.byId.delete(id)) return 'missing';
    this.audit.record(commit.events);
    return 'deleted';
  }
}
