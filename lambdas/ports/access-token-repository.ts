import type { AccessTokenScope } from '../../shared/domain/access-tokens';
import type { Role } from '../../shared/domain/roles';
import type { Recorded } from './audit-log';

/** An access token as stored: the SHA-256 of its secret, never the secret. */
export interface AccessTokenRecord {
  id: string;
  userId: string;
  /** the owner's role when it was made: a token ends when the role changes (decision 256) */
  userRole: Role;
  /** the owner's token epoch when it was made: it ends for good once the owner's moves on (decision 334) */
  ownerEpoch?: number;
  name: string;
  scopes: AccessTokenScope[];
  /** hex SHA-256 of the whole bearer string */
  secretHash: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
  revokedBy?: string;
}

export interface AccessTokenRepository {
  /** stores a new token with its events (one transaction, decision 283) */
  create(token: AccessTokenRecord, commit?: Recorded): Promise<void>;
  get(id: string): Promise<AccessTokenRecord | null>;
  listByUser(userId: string): Promise<AccessTokenRecord[]>;
  listAll(): Promise<AccessTokenRecord[]>;
  /** marks it revoked, with its events (one transaction); false when it was revoked already (nothing written) */
  revoke(id: string, at: string, by: string, commit?: Recorded): Promise<boolean>;
  /** records a use (last used); never fails the call it was made for */
  touch(id: string, at: string): Promise<void>;
}
