import type { Dcc } from '../../shared/api/contracts/dcc';

export interface DccRepository {
  create(dcc: Dcc): Promise<void>;
  get(id: string): Promise<Dcc | null>;
  list(): Promise<Dcc[]>;
  delete(ids: string[]): Promise<void>;
}
