import { DynamoAccessTokenRepository } from './adapters/dynamodb/access-token-repository';
import { auditTable, once, userRepository } from './composition';
import { tableName } from './config/env';
import { systemClock } from './ports/clock';
import { AccessTokenService } from './services/access-tokens';

/** The access token service: tokens live in the users table; the audit table is named on first use. */
export const accessTokenService = /* @__PURE__ */ once(
  () =>
    new AccessTokenService({
      tokens: new DynamoAccessTokenRepository(tableName('users'), auditTable),
      users: userRepository(),
      clock: systemClock,
    }),
);
