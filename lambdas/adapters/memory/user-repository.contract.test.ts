import { userRepositoryContract } from '../../../test/contracts/user-repository.contract';
import { MemoryUserRepository } from './user-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/user-repository.test.ts
userRepositoryContract('memory', async () => new MemoryUserRepository());
