import { accessTokenRepositoryContract } from '../../../test/contracts/access-token-repository.contract';
import { MemoryAccessTokenRepository } from './access-token-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/access-token-repository.test.ts
accessTokenRepositoryContract('memory', async () => new MemoryAccessTokenRepository());
