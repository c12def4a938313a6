import { dccRepositoryContract } from '../../../test/contracts/dcc-repository.contract';
import { MemoryDccRepository } from './dcc-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/dcc-repository.test.ts
dccRepositoryContract('memory', async () => new MemoryDccRepository());
