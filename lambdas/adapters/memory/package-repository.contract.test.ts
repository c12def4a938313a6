import { packageRepositoryContract } from '../../../test/contracts/package-repository.contract';
import { MemoryPackageRepository } from './package-repository';

// the same contract runs on DynamoDB Local: test/integration/ports/package-repository.test.ts
packageRepositoryContract('memory', async () => {
  const resources = new Set<string>();
  const repo = new MemoryPackageRepository((id) => resources.has(id));
  return {
    repo,
    addResource: async (id) => void resources.add(id),
    resourceRefs: async (id) => repo.resourceRefs.get(id) ?? 0,
  };
});
