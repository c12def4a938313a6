import type { AccessTokenRecord, AccessTokenRepository } from '../../ports/access-token-repository';
import type { Recorded } from '../../ports/audit-log';
import { systemClock } from '../../ports/clock';
import { MemoryAuditLog } from './audit-log';

/**
 * Access tokens in memory: the rows the DynamoDB adapter keeps in the users table; each write
 * records its events with it (decision 283).
 */
export class MemoryAccessTokenRepository implements AccessTokenRepository {
  private readonly byId = new Map<string, AccessTokenRecord>();

  constructor(readonly audit = new MemoryAuditLog(systemClock)) {}

  async create(token: AccessTokenRecord, commit: Recorded = {}): Promise<void> {
    if (this.byId.has(token.id)) throw new Error(`access token ${token.id} exists`);
    this.byId.set(token.id, structuredClone(token));
    this.audit.record(commit.events);
  }

  async get(id: string): Promise<AccessTokenRecord | null> {
    const t = this.byId.get(id);
    return t ? structuredClone(t) : null;
  }

  async listByUser(userId: string): Promise<AccessTokenRecord[]> {
    return (await this.listAll()).filter((t) => t.userId === userId);
  }

  async listAll(): Promise<AccessTokenRecord[]> {
    return [...this.byId.values()].map((t) => structuredClone(t));
  }

  async revoke(id: string, at: string, by: string, commit: Recorded = {}): Promise<boolean> {
    const t = this.byId.get(id);
    if (!t || t.revokedAt) return false;
    this.byId.set(id, { ...t, revokedAt: at, revokedBy: by });
    this.audit.record(commit.events);
    return true;
  }

  async touch(id: string, at: string): Promise<void> {
    const t = this.byId.get(id);
    if (t) this.byId.set(id, { ...t, lastUsedAt: at });
  }
}
