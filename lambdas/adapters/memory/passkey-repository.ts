import type { Recorded } from '../../ports/audit-log';
import type { Ceremony, PasskeyRecord, PasskeyRepository } from '../../ports/passkey-repository';
import type { UserRecord, UserRepository } from '../../ports/user-repository';
import { ItemMap } from './item-map';

/**
 * Passkeys and ceremonies in memory with the DynamoDB adapter's rules: a credential is registered once,
 * a ceremony is taken once, the user record changes with the passkey or not at all (its version checked
 * first, so a lost race changes nothing), a use moves the counter only from the value it read.
 */
export class MemoryPasskeyRepository implements PasskeyRepository {
  private readonly passkeys: ItemMap<PasskeyRecord>;
  private readonly ceremonies = new ItemMap<Ceremony>();

  /** `users` keeps the passkey items, as the users table does: an account's deletion takes them along. */
  constructor(
    private readonly users: Pick<UserRepository, 'getById' | 'updateAll' | 'record'> & {
      readonly passkeyItems: ItemMap<PasskeyRecord>;
    },
  ) {
    this.passkeys = users.passkeyItems;
  }

  async putCeremony(c: Ceremony): Promise<void> {
    this.ceremonies.putNew(c.idHash, c);
  }

  async takeCeremony(idHash: string): Promise<Ceremony | null> {
    const c = this.ceremonies.get(idHash);
    this.ceremonies.delete(idHash);
    return c;
  }

  async get(id: string): Promise<PasskeyRecord | null> {
    return this.passkeys.get(id);
  }

  async getAll(ids: readonly string[]): Promise<PasskeyRecord[]> {
    return ids.map((id) => this.passkeys.get(id)).filter((p): p is PasskeyRecord => p !== null);
  }

  async add(passkey: PasskeyRecord, next: UserRecord, expectedVersion: number, commit: Recorded = {}) {
    if (this.passkeys.has(passkey.id)) return 'taken' as const;
    if (!(await this.users.updateAll([{ next, expectedVersion }], commit))) return 'conflict' as const;
    this.passkeys.putNew(passkey.id, passkey);
    return 'ok' as const;
  }

  async remove(
    passkey: Pick<PasskeyRecord, 'id' | 'userId'>,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ) {
    if (this.passkeys.stored(passkey.id)?.userId !== passkey.userId) return false;
    if (!(await this.users.updateAll([{ next, expectedVersion }], commit))) return false;
    this.passkeys.delete(passkey.id);
    return true;
  }

  async recordUse(id: string, counter: number, newCounter: number, at: string): Promise<boolean> {
    const p = this.passkeys.stored(id);
    if (!p || p.counter !== counter) return false;
    this.passkeys.set(id, { ...p, counter: newCounter, lastUsedAt: at });
    return true;
  }

  async update(
    id: string,
    userId: string,
    change: { name?: string; removalProposal?: PasskeyRecord['removalProposal'] | null },
    commit: Recorded = {},
  ): Promise<boolean> {
    const p = this.passkeys.stored(id);
    if (!p || p.userId !== userId) return false;
    await this.users.record(commit.events ?? []);
    const { removalProposal: old, ...rest } = p;
    const proposal = change.removalProposal === undefined ? old : (change.removalProposal ?? undefined);
    this.passkeys.set(id, {
      ...rest,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(proposal ? { removalProposal: proposal } : {}),
    });
    return true;
  }
}
