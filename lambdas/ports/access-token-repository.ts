import type { AccessTokenScope } from '../../shared/domain/access-tokens';
import type { Role } from '../../shared/domain/roles';

/** An access token as stored (issue 27): the SHA-256 of its secret, never the secret. */
export interface AccessTokenRecord {
  id: string;
  userId: string;
  /** the owner's role when it was made: a token ends when the role changes (decision 256) */
  userRole: Role;
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
  create(token: AccessTokenRecord): Promise<void>;
  get(id: string): Promise<AccessTokenRecord | null>;
  listByUser(userId: string): Promise<AccessTokenRecord[]>;
  listAll(): Promise<AccessTokenRecord[]>;
  /** marks it revoked; false when it was revoked already */
  revoke(id: string, at: string, by: string): Promise<boolean>;
  /** records a use (last used); never fails the call it was made for */
  touch(id: string, at: string): Promise<void>;
}
