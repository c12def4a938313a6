import { beforeAll } from 'vitest';
import { DynamoUserRepository } from '../../../lambdas/adapters/dynamodb/user-repository';
import { userRepositoryContract } from '../../contracts/user-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/user-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('users');
});

userRepositoryContract('DynamoDB', async () => new DynamoUserRepository(tables.users));
