import type { TokenEnding } from '../../shared/domain/access-token-endings';
import type { LinkedBy } from '../../shared/domain/company-sign-on';
import type { DeletionProposal } from '../../shared/domain/deletion-proposals';
import type { RoleStatus } from '../../shared/domain/identity';
import type { RoleProposal } from '../../shared/domain/role-grants';
import type { RevocationProposal } from '../../shared/domain/role-revocations';
import type { Role } from '../../shared/domain/roles';
import type { AuditEvent, Recorded } from './audit-log';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  userRole: Role;
  /** '' for an account made by a company sign-in: it has no portal password (nothing verifies against it) */
  passwordHash: string;
  /** bumped on logout, password change and deletion: tokens carrying an older value are refused */
  tokenVersion: number;
  tempPasswordHash?: string;
  tempPasswordExpiresAt?: string;
  /** the address was confirmed by a mailed link (missing on records older than mailbox confirmation: see decision 070) */
  emailConfirmed?: boolean;
  /** GRANTED | REQUESTED | REFUSED: a chosen role holds authority only once an admin granted it */
  roleStatus?: RoleStatus;
  /** a new address waiting for its confirmation link; `email` stays the login until then */
  pendingEmail?: string;
  /** the deletion of this admin's account one admin proposed, waiting for a second (decision 336) */
  deletionProposal?: DeletionProposal;
  /** a grant one admin proposed, waiting for a second admin's confirmation (decision 180) */
  roleProposal?: RoleProposal;
  /** a revocation of the granted role one admin proposed, waiting for a second admin (decision 357) */
  revocationProposal?: RevocationProposal;
  /**
   * set by `npm run admin:create`, and by a sign-in with a mailed temporary password: the password must
   * be replaced before anything else (and before it may sign a decision)
   */
  mustChangePassword?: boolean;
  /**
   * an unconfirmed registration is forgotten at this instant (24 h after registering): its address is free
   * again. Gone once the address is confirmed. The stores also let their TTL remove the account then.
   */
  unconfirmedUntil?: string;
  /**
   * the company identity (OpenID Connect issuer + subject) that signs in as this account
   * (docs/decisions/315-company-sign-on.md); `email` is the one the provider last said, for the admins only
   */
  companyIdentity?: CompanyIdentityRef;
  /** a link of a company identity waiting for two admins (one proposes, a second confirms) */
  companyLinkRequest?: CompanyLinkRequest;
  /**
   * the credential ids of the account's passkeys (decision 322), changed in the same write as the passkey
   * items: a strongly consistent answer to "is a second factor due" at every sign-in
   */
  passkeyIds?: string[];
  /**
   * the account's access token epoch and its recent endings (decision 334): moved on, in the same write, by
   * a role change, a refusal or revocation, a password reset taking effect and a password change
   */
  tokenEpoch?: number;
  tokenEndings?: TokenEnding[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface CompanyIdentityRef {
  issuer: string;
  subject: string;
  email: string;
  linkedAt: string;
  linkedBy: LinkedBy;
}

export interface CompanyLinkRequest {
  issuer: string;
  subject: string;
  email: string;
  requestedAt: string;
  /** the first admin's proposal: a second, different admin confirms it */
  proposal?: { byId: string; byName: string; byEmail: string; at: string };
}

/** A mailed confirmation link, stored under the SHA-256 of its token (the token itself is never stored). */
export interface EmailToken {
  tokenHash: string;
  userId: string;
  /** the address the link was mailed to (the new one, for an email change) */
  email: string;
  purpose: 'REGISTER' | 'CHANGE_EMAIL';
  createdAt: string;
  /** the link works until this instant */
  validUntil: string;
  usedAt?: string;
}

export interface ThrottleState {
  failures: number;
  lastFailureAt: string | null;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * What a user write commits with it, in one transaction (decision 283): its audit events and, for a change
 * made by a mailed link, the link marked used (single use: a link used meanwhile refuses the whole write).
 */
export interface UserCommit extends Recorded {
  usedLink?: { tokenHash: string; at: string };
}

export interface UserRepository {
  /**
   * creates the user and claims its email; false when the email was ever claimed. `replacing`: an expired
   * unconfirmed registration of the same address (`unconfirmedUntil` passed), removed in the same write
   * (false when it changed meanwhile).
   */
  create(user: UserRecord, replacing?: UserRecord, commit?: UserCommit): Promise<boolean>;
  /**
   * Records events that change no stored state (a sign-in: the session is a token, not a row), chained in
   * one transaction of their own (decision 283).
   */
  record(events: readonly AuditEvent[]): Promise<void>;
  getById(id: string): Promise<UserRecord | null>;
  getByEmail(email: string): Promise<UserRecord | null>;
  list(): Promise<UserRecord[]>;
  listByRole(role: Role): Promise<UserRecord[]>;
  /**
   * conditional on `expectedVersion`; moves the email claim when the email changes; 'conflict' on a lost
   * race (or a link used meanwhile)
   */
  update(
    next: UserRecord,
    expectedVersion: number,
    previousEmail: string,
    commit?: UserCommit,
  ): Promise<'ok' | 'conflict' | 'emailTaken'>;
  /**
   * stores `next` (conditional on `expectedVersion`, as update) without `unconfirmedUntil`, and makes the
   * claim of its address permanent: a confirmed registration no longer expires
   */
  confirmRegistration(
    next: UserRecord,
    expectedVersion: number,
    commit?: UserCommit,
  ): Promise<'ok' | 'conflict'>;
  /**
   * deletes the user; the email claim stays (marked deleted) so the email cannot register again; false
   * when the user was gone already (nothing written)
   */
  delete(user: UserRecord, at: string, commit?: UserCommit): Promise<boolean>;
  /**
   * removes an unconfirmed registration and its email claim (the address is free again), if the record is
   * still at its version; false otherwise (nothing written)
   */
  discard(user: UserRecord, commit?: UserCommit): Promise<boolean>;
  /** conditional updates of several users in one transaction (no email moves); false on a lost race */
  updateAll(changes: { next: UserRecord; expectedVersion: number }[], commit?: UserCommit): Promise<boolean>;
  putEmailToken(token: EmailToken): Promise<void>;
  getEmailToken(tokenHash: string): Promise<EmailToken | null>;
  /** marks the token used; false when it was used meanwhile (single use) */
  markEmailTokenUsed(tokenHash: string, at: string): Promise<boolean>;
  getThrottle(key: string): Promise<ThrottleState>;
  /**
   * Counts one failure under `key`. `firstInWindow`: nothing was remembered under the key before (no
   * earlier failure within its memory, forgiven or not).
   */
  recordFailure(
    key: string,
    at: string,
    expiresAtEpoch: number,
  ): Promise<{ failures: number; firstInWindow: boolean }>;
  /** sets the count to zero but remembers that the key failed, until the memory of its last failure ends */
  forgiveFailures(key: string): Promise<void>;
  clearThrottle(key: string): Promise<void>;
  /**
   * Takes one use of a quota of `limit` uses per window of `windowSeconds` that opens at its first use,
   * atomically (concurrent calls never exceed it). Refused: how many seconds until the window ends.
   */
  takeQuota(key: string, limit: number, windowSeconds: number, at: Date): Promise<QuotaResult>;
  /** gives one use back (the action it was taken for did not happen) */
  returnQuota(key: string): Promise<void>;
}
