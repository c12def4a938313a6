import { beforeAll } from 'vitest';
import { DynamoAccessTokenRepository } from '../../../lambdas/adapters/dynamodb/access-token-repository';
import { accessTokenRepositoryContract } from '../../contracts/access-token-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/access-token-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('tokens');
});

// tokens live in the users table
accessTokenRepositoryContract('DynamoDB', async () => new DynamoAccessTokenRepository(tables.users));
