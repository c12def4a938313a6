import { resourceRepositoryContract } from '../../../test/contracts/resource-repository.contract';
import { MemoryResourceRepository } from './resource-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/resource-repository.test.ts
resourceRepositoryContract('memory', async () => {
  const repo = new MemoryResourceRepository();
  return { repo, countPackageRef: async (id) => repo.countPackageRef(id) };
});
