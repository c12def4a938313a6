import type { Recorded } from '../../ports/audit-log';
import type {
  CompanyIdentityStore,
  CompanyLink,
  LinkOffer,
  LinkResult,
  ReauthTicket,
  SignOnTransaction,
} from '../../ports/company-identity-store';
import type { UserRecord } from '../../ports/user-repository';
import { type AuditTable, NO_AUDIT_TABLE, writeRecorded } from './audit-commit';
import { cancelledBy, createItem, deleteOwned, getItem, putAtVersion, putNew, takeItem } from './transact';
import { emailClaim, userItem } from './user-repository';

/**
 * Company sign-on in the users table (decision 315): `SIGNON#<sha256 of state>` (a sign-in under way),
 * `IDP#<issuer>#<subject>` (the link of a company identity, kept after its account is deleted, like an
 * address claim), `LINKOFFER#<hash>` and `REAUTH#<hash>` (single-use tickets). The table's TTL removes the
 * short-lived items after they expired; reads check the expiry themselves, since TTL runs late.
 */
const txPk = (h: string) => `SIGNON#${h}`;
const linkPk = (issuer: string, subject: string) => `IDP#${issuer}#${subject}`;
const offerPk = (h: string) => `LINKOFFER#${h}`;
const reauthPk = (h: string) => `REAUTH#${h}`;
const ttl = (iso: string) => Math.ceil(Date.parse(iso) / 1000) + 24 * 60 * 60;

function strip<T>(item: Record<string, unknown>): T {
  const { pk: _pk, kind: _kind, expiresAt: _ttl, validUntil, ...rest } = item;
  return { ...rest, ...(validUntil !== undefined ? { expiresAt: validUntil } : {}) } as T;
}

/** A short-lived item: its own expiry as validUntil, the table's TTL attribute (epoch seconds) as expiresAt. */
const shortLived = (pk: string, kind: string, v: { expiresAt: string } & Record<string, unknown>) => {
  const { expiresAt, ...rest } = v;
  return { ...rest, pk, kind, validUntil: expiresAt, expiresAt: ttl(expiresAt) };
};

export class DynamoCompanyIdentityStore implements CompanyIdentityStore {
  /** `audit`: where the events of the link writes are chained, in the same transaction (decision 283) */
  constructor(
    private readonly table: string,
    private readonly audit: AuditTable = NO_AUDIT_TABLE,
  ) {}

  async putTransaction(tx: SignOnTransaction): Promise<void> {
    await createItem(this.table, shortLived(txPk(tx.stateHash), 'SIGNON', { ...tx }));
  }

  takeTransaction(stateHash: string): Promise<SignOnTransaction | null> {
    return this.take<SignOnTransaction>(txPk(stateHash));
  }

  async getLink(issuer: string, subject: string): Promise<CompanyLink | null> {
    const item = await getItem(this.table, { pk: linkPk(issuer, subject) });
    return item ? strip<CompanyLink>(item) : null;
  }

  async createLinkedAccount(
    user: UserRecord,
    link: CompanyLink,
    commit: Recorded = {},
  ): Promise<'ok' | 'emailTaken' | 'identityTaken'> {
    try {
      await writeRecorded(
        this.audit,
        [
          putNew(this.table, emailClaim(user.email, user.id, user.createdAt)),
          putNew(this.table, userItem(user)),
          putNew(this.table, { ...link, pk: linkPk(link.issuer, link.subject), kind: 'IDP_LINK' }),
        ],
        commit.events,
      );
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 0)) return 'emailTaken';
      if (cancelledBy(e, 2)) return 'identityTaken';
      throw e;
    }
  }

  async link(
    link: CompanyLink,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ): Promise<LinkResult> {
    try {
      await writeRecorded(
        this.audit,
        [
          putNew(this.table, { ...link, pk: linkPk(link.issuer, link.subject), kind: 'IDP_LINK' }),
          putAtVersion(this.table, userItem(next), expectedVersion),
        ],
        commit.events,
      );
      return 'ok';
    } catch (e) {
      if (cancelledBy(e, 0)) return 'identityTaken';
      if (cancelledBy(e, 1)) return 'conflict';
      throw e;
    }
  }

  async unlink(
    issuer: string,
    subject: string,
    next: UserRecord,
    expectedVersion: number,
    commit: Recorded = {},
  ): Promise<boolean> {
    try {
      await writeRecorded(
        this.audit,
        [
          deleteOwned(this.table, { pk: linkPk(issuer, subject) }, next.id),
          putAtVersion(this.table, userItem(next), expectedVersion),
        ],
        commit.events,
      );
      return true;
    } catch (e) {
      if (cancelledBy(e, 0) || cancelledBy(e, 1)) return false;
      throw e;
    }
  }

  async putLinkOffer(offer: LinkOffer, commit: Recorded = {}): Promise<void> {
    const item = shortLived(offerPk(offer.ticketHash), 'LINK_OFFER', { ...offer });
    await writeRecorded(this.audit, [putNew(this.table, item)], commit.events);
  }

  async getLinkOffer(ticketHash: string): Promise<LinkOffer | null> {
    const item = await getItem(this.table, { pk: offerPk(ticketHash) });
    return item ? strip<LinkOffer>(item) : null;
  }

  async takeLinkOffer(ticketHash: string): Promise<boolean> {
    return (await this.take<LinkOffer>(offerPk(ticketHash))) !== null;
  }

  async putReauthTicket(ticket: ReauthTicket, commit: Recorded = {}): Promise<void> {
    const item = shortLived(reauthPk(ticket.ticketHash), 'REAUTH', { ...ticket });
    await writeRecorded(this.audit, [putNew(this.table, item)], commit.events);
  }

  takeReauthTicket(ticketHash: string): Promise<ReauthTicket | null> {
    return this.take<ReauthTicket>(reauthPk(ticketHash));
  }

  /** Deletes the item and answers what it held; null when there was none (taken already). */
  private async take<T>(pk: string): Promise<T | null> {
    const item = await takeItem(this.table, { pk });
    return item ? strip<T>(item) : null;
  }
}
