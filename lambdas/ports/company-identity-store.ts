import type { LinkedBy } from '../../shared/domain/company-sign-on';
import type { Recorded } from './audit-log';
import type { UserRecord } from './user-repository';

/**
 * What company sign-on keeps (docs/decisions/315-company-sign-on.md), in the users table beside the
 * accounts: sign-ins under way at the provider, links of company identities to accounts, link offers and
 * the one-time proofs of a fresh sign-in. Secrets (state, tickets) are stored only as their SHA-256.
 */

/** A sign-in sent to the provider: what its answer must match. Single use, short-lived. */
export interface SignOnTransaction {
  stateHash: string;
  purpose: 'SIGN_IN' | 'REAUTH';
  /** PKCE verifier and nonce: secrets of the backend, never sent to the browser */
  codeVerifier: string;
  nonce: string;
  /** SHA-256 of the secret the starting browser window holds: the answer must come back to that window */
  bindingHash: string;
  /** REAUTH: the signed-in user who asked to confirm */
  userId?: string;
  createdAt: string;
  expiresAt: string;
}

/** A company identity (issuer + subject) and the account it signs in as. */
export interface CompanyLink {
  issuer: string;
  subject: string;
  userId: string;
  linkedAt: string;
  linkedBy: LinkedBy;
}

/** A company sign-in whose address belongs to an existing account: linked only by its password or two admins. */
export interface LinkOffer {
  ticketHash: string;
  userId: string;
  issuer: string;
  subject: string;
  email: string;
  createdAt: string;
  expiresAt: string;
}

/** The proof of a fresh sign-in at the company, spent by one signature of its user. */
export interface ReauthTicket {
  ticketHash: string;
  userId: string;
  issuer: string;
  subject: string;
  authTime: string;
  createdAt: string;
  expiresAt: string;
}

export type LinkResult = 'ok' | 'identityTaken' | 'conflict';

export interface CompanyIdentityStore {
  putTransaction(tx: SignOnTransaction): Promise<void>;
  /** removes and answers the transaction (single use: a second take of the same state answers null) */
  takeTransaction(stateHash: string): Promise<SignOnTransaction | null>;
  getLink(issuer: string, subject: string): Promise<CompanyLink | null>;
  /**
   * creates an account that a company identity signs in as, in one transaction: the user, its address
   * claim and the link. 'emailTaken' when the address was ever claimed, 'identityTaken' when linked meanwhile.
   */
  createLinkedAccount(
    user: UserRecord,
    link: CompanyLink,
    commit?: Recorded,
  ): Promise<'ok' | 'emailTaken' | 'identityTaken'>;
  /** links the identity and stores `next` (conditional on the user's `expectedVersion`), in one transaction */
  link(link: CompanyLink, next: UserRecord, expectedVersion: number, commit?: Recorded): Promise<LinkResult>;
  /** removes the link and stores `next` (conditional on `expectedVersion`); false on a lost race */
  unlink(
    issuer: string,
    subject: string,
    next: UserRecord,
    expectedVersion: number,
    commit?: Recorded,
  ): Promise<boolean>;
  putLinkOffer(offer: LinkOffer, commit?: Recorded): Promise<void>;
  getLinkOffer(ticketHash: string): Promise<LinkOffer | null>;
  /** removes the offer; false when it was used meanwhile */
  takeLinkOffer(ticketHash: string): Promise<boolean>;
  putReauthTicket(ticket: ReauthTicket, commit?: Recorded): Promise<void>;
  /** removes and answers the ticket (single use) */
  takeReauthTicket(ticketHash: string): Promise<ReauthTicket | null>;
}
