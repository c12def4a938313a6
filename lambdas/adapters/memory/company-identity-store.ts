import type { Recorded } from '../../ports/audit-log';
import type {
  CompanyIdentityStore,
  CompanyLink,
  LinkOffer,
  LinkResult,
  ReauthTicket,
  SignOnTransaction,
} from '../../ports/company-identity-store';
import type { UserRecord, UserRepository } from '../../ports/user-repository';
import { ItemMap } from './item-map';

/**
 * Company sign-on in memory, with the DynamoDB adapter's rules (single-use takes, one link per identity,
 * conditional user writes). It writes users through the memory user repository it is given; nothing is
 * awaited between a check and its write, so no other call runs in between.
 */
export class MemoryCompanyIdentityStore implements CompanyIdentityStore {
  private readonly txs = new ItemMap<SignOnTransaction>();
  private readonly links = new ItemMap<CompanyLink>();
  private readonly offers = new ItemMap<LinkOffer>();
  private readonly tickets = new ItemMap<ReauthTicket>();

  constructor(private readonly users: UserRepository) {}

  async putTransaction(tx: SignOnTransaction): Promise<void> {
    this.txs.putNew(tx.stateHash, tx);
  }

  async takeTransaction(stateHash: string): Promise<SignOnTransaction | null> {
    return take(this.txs, stateHash);
  }

  async getLink(issuer: string, subject: string): Promise<CompanyLink | null> {
    return this.links.get(`${issuer}#${subject}`);
  }

  async createLinkedAccount(
    user: UserRecord,
    link: CompanyLink,
    commit: Recorded = {},
  ): Promise<'ok' | 'emailTaken' | 'identityTaken'> {
    const key = `${link.issuer}#${link.subject}`;
    if (this.links.has(key)) return 'identityTaken';
    if (!(await this.users.create(user, undefined, commit))) return 'emailTaken';
    this.links.putNew(key, link);
    return 'ok';
  }

  async link(
    link: CompanyLink,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ): Promise<LinkResult> {
    const key = `${link.issuer}#${link.subject}`;
    if (this.links.has(key)) return 'identityTaken';
    const result = await this.users.update(next, expectedVersion, next.email, commit);
    if (result !== 'ok') return 'conflict';
    this.links.putNew(key, link);
    return 'ok';
  }

  async unlink(
    issuer: string,
    subject: string,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ): Promise<boolean> {
    const key = `${issuer}#${subject}`;
    if (this.links.get(key)?.userId !== next.id) return false;
    if ((await this.users.update(next, expectedVersion, next.email, commit)) !== 'ok') return false;
    this.links.delete(key);
    return true;
  }

  async putLinkOffer(offer: LinkOffer, commit: Recorded = {}): Promise<void> {
    this.offers.putNew(offer.ticketHash, offer);
    await this.users.record(commit.events ?? []);
  }

  async getLinkOffer(ticketHash: string): Promise<LinkOffer | null> {
    return this.offers.get(ticketHash);
  }

  async takeLinkOffer(ticketHash: string): Promise<boolean> {
    return take(this.offers, ticketHash) !== null;
  }

  async putReauthTicket(ticket: ReauthTicket, commit: Recorded = {}): Promise<void> {
    this.tickets.putNew(ticket.ticketHash, ticket);
    await this.users.record(commit.events ?? []);
  }

  async takeReauthTicket(ticketHash: string): Promise<ReauthTicket | null> {
    return take(this.tickets, ticketHash);
  }
}

function take<T extends object>(map: ItemMap<T>, key: string): T | null {
  const item = map.get(key);
  if (item) map.delete(key);
  return item;
}
