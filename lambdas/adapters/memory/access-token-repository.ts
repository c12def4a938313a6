import type { AccessTokenRecord, AccessTokenRepository } from '../../ports/access-token-repository';

/** Access tokens in memory (issue 27): the rows the DynamoDB adapter keeps in the users table. */
export class MemoryAccessTokenRepository implements AccessTokenRepository {
  private readonly byId = new Map<string, AccessTokenRecord>();

  async create(token: AccessTokenRecord): Promise<void> {
    if (this.byId.has(token.id)) throw new Error(`access token ${token.id} exists`);
    this.byId.set(token.id, structuredClone(token));
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

  async revoke(id: string, at: string, by: string): Promise<boolean> {
    const t = this.byId.get(id);
    if (!t || t.revokedAt) return false;
    this.byId.set(id, { ...t, revokedAt: at, revokedBy: by });
    return true;
  }

  async touch(id: string, at: string): Promise<void> {
    const t = this.byId.get(id);
    if (t) this.byId.set(id, { ...t, lastUsedAt: at });
  }
}
