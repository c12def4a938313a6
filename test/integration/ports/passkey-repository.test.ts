import { beforeAll } from 'vitest';
import { DynamoPasskeyRepository } from '../../../lambdas/adapters/dynamodb/passkey-repository';
import { DynamoUserRepository } from '../../../lambdas/adapters/dynamodb/user-repository';
import { passkeyRepositoryContract } from '../../contracts/passkey-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/passkey-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('passkeys');
});

// passkeys and ceremonies live in the users table, beside the accounts
passkeyRepositoryContract('DynamoDB', async () => ({
  users: new DynamoUserRepository(tables.users),
  passkeys: new DynamoPasskeyRepository(tables.users),
}));
