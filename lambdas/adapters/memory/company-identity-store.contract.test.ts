import { companyIdentityStoreContract } from '../../../test/contracts/company-identity-store.contract';
import { MemoryCompanyIdentityStore } from './company-identity-store';
import { MemoryUserRepository } from './user-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/company-identity-store.test.ts
companyIdentityStoreContract('memory', async () => {
  const users = new MemoryUserRepository();
  return { users, store: new MemoryCompanyIdentityStore(users) };
});
