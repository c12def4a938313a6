import { passkeyRepositoryContract } from '../../../test/contracts/passkey-repository.contract';
import { MemoryPasskeyRepository } from './passkey-repository';
import { MemoryUserRepository } from './user-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/passkey-repository.test.ts
passkeyRepositoryContract('memory', async () => {
  const users = new MemoryUserRepository();
  return { users, passkeys: new MemoryPasskeyRepository(users) };
});
