import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll } from 'vitest';
import { dynamo } from '../../../lambdas/adapters/aws-clients';
import { DynamoResourceRepository } from '../../../lambdas/adapters/dynamodb/resource-repository';
import { resourceRepositoryContract } from '../../contracts/resource-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/resource-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('resources');
});

resourceRepositoryContract('DynamoDB', async () => ({
  repo: new DynamoResourceRepository(tables.resources),
  // what DynamoPackageRepository.create adds to the resource in its transaction
  countPackageRef: async (id) => {
    await dynamo().send(
      new UpdateCommand({
        TableName: tables.resources,
        Key: { pk: `RES#${id}` },
        UpdateExpression: 'ADD packageRefs :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  },
}));
