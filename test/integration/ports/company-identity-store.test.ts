import { beforeAll } from 'vitest';
import { DynamoCompanyIdentityStore } from '../../../lambdas/adapters/dynamodb/company-identity-store';
import { DynamoUserRepository } from '../../../lambdas/adapters/dynamodb/user-repository';
import { companyIdentityStoreContract } from '../../contracts/company-identity-store.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/company-identity-store.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('company');
});

// sign-ins, links, offers and tickets live in the users table, beside the accounts
companyIdentityStoreContract('DynamoDB', async () => ({
  users: new DynamoUserRepository(tables.users),
  store: new DynamoCompanyIdentityStore(tables.users),
}));
