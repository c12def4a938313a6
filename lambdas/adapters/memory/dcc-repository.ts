import type { Dcc } from '../../../shared/api/contracts/dcc';
import type { DccRepository } from '../../ports/dcc-repository';

/** DCCs in memory; like the DynamoDB adapter, an id is created once and the list is newest first. */
export class MemoryDccRepository implements DccRepository {
  private readonly byId = new Map<string, Dcc>();

  async create(dcc: Dcc): Promise<void> {
    if (this.byId.has(dcc.id)) throw new Error(`DCC ${dcc.id} exists`);
    this.byId.set(dcc.id, { ...dcc });
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

  async delete(ids: string[]): Promise<void> {
    for (const id of ids) this.byId.delete(id);
  }
}
