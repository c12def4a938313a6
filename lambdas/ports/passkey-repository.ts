import type { PasskeyRemovalProposal } from '../../shared/domain/passkeys';
import type { SignatureMethod } from '../../shared/domain/signature-meanings';
import type { Recorded } from './audit-log';
import type { UserRecord } from './user-repository';

/** A registered passkey (a WebAuthn credential) of one user. The public key only: nothing secret. */
export interface PasskeyRecord {
  /** the credential id, base64url (what an assertion names) */
  id: string;
  userId: string;
  name: string;
  /** COSE public key, base64url */
  publicKey: string;
  /** the authenticator's signature counter at its last accepted use (0: it keeps none) */
  counter: number;
  transports?: string[];
  deviceType?: 'singleDevice' | 'multiDevice';
  backedUp?: boolean;
  createdAt: string;
  lastUsedAt?: string;
  removalProposal?: PasskeyRemovalProposal;
}

/** What a ceremony is for: adding a passkey, the second factor of a sign-in, or a signature. */
export type CeremonyPurpose = 'register' | 'signIn' | 'signature';

/**
 * A WebAuthn challenge the server issued, stored under the SHA-256 of the ceremony id it handed out
 * (single use: taking it deletes it; short-lived: `validUntil`).
 */
export interface Ceremony {
  idHash: string;
  purpose: CeremonyPurpose;
  userId: string;
  /** base64url challenge the authenticator must sign */
  challenge: string;
  validUntil: string;
  /** signIn: the token version and first factor the session will carry once the passkey is verified */
  tokenVersion?: number;
  method?: SignatureMethod;
  mustChangePassword?: boolean;
}

export interface PasskeyRepository {
  putCeremony(c: Ceremony): Promise<void>;
  /** the ceremony, removed in the same step (a second take of the same id finds nothing) */
  takeCeremony(idHash: string): Promise<Ceremony | null>;
  get(id: string): Promise<PasskeyRecord | null>;
  /** the passkeys of these ids (the user record lists them); missing ones are left out */
  getAll(ids: readonly string[]): Promise<PasskeyRecord[]>;
  /**
   * Stores a new passkey and the user record listing it (`next`, conditional on `expectedVersion`) in one
   * write. 'taken': the credential is registered already (to anyone); 'conflict': the user changed.
   */
  add(
    passkey: PasskeyRecord,
    next: UserRecord,
    expectedVersion: number,
    commit?: Recorded,
  ): Promise<'ok' | 'taken' | 'conflict'>;
  /**
   * Removes the passkey (while it is still `userId`'s) and stores `next` (no longer listing it, a new token
   * version) in one write; false when either changed meanwhile.
   */
  remove(
    passkey: Pick<PasskeyRecord, 'id' | 'userId'>,
    next: UserRecord,
    expectedVersion: number,
    commit?: Recorded,
  ): Promise<boolean>;
  /**
   * Records an accepted use: the new counter and time, only while the stored counter is still `counter`
   * (two uses at once cannot both move it); false when it moved or the passkey is gone.
   */
  recordUse(id: string, counter: number, newCounter: number, at: string): Promise<boolean>;
  /** Replaces name or removal proposal of a passkey still held by `userId`; false when it is gone. */
  update(
    id: string,
    userId: string,
    change: { name?: string; removalProposal?: PasskeyRemovalProposal | null },
    commit?: Recorded,
  ): Promise<boolean>;
}
