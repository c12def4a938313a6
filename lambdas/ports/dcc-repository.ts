import type { Dcc } from '../../shared/api/contracts/dcc';
import type { Recorded } from './audit-log';

export interface DccRepository {
  /** stores a new DCC with its events (one transaction, decision 283) */
  create(dcc: Dcc, commit?: Recorded): Promise<void>;
  get(id: string): Promise<Dcc | null>;
  list(): Promise<Dcc[]>;
  /** deletes one DCC with its events (one transaction); 'missing' when it was gone already (nothing written) */
  delete(id: string, commit?: Recorded): Promise<'deleted' | 'missing'>;
}
