import { beforeAll } from 'vitest';
import { DynamoDccRepository } from '../../../lambdas/adapters/dynamodb/dcc-repository';
import { dccRepositoryContract } from '../../contracts/dcc-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/dcc-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('dcc');
});

dccRepositoryContract('DynamoDB', async () => new DynamoDccRepository(tables.dcc));
