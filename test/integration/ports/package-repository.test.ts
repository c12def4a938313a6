import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll } from 'vitest';
import { dynamo } from '../../../lambdas/adapters/aws-clients';
import { DynamoPackageRepository } from '../../../lambdas/adapters/dynamodb/package-repository';
import { packageRepositoryContract } from '../../contracts/package-repository.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/package-repository.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('packages');
});

packageRepositoryContract('DynamoDB', async () => ({
  repo: new DynamoPackageRepository(tables.packages, () => tables.resources, {
    outboxTable: () => tables.outbox,
  }),
  addResource: async (id) => {
    await dynamo().send(new PutCommand({ TableName: tables.resources, Item: { pk: `RES#${id}` } }));
  },
  resourceRefs: async (id) => {
    const r = await dynamo().send(
      new GetCommand({ TableName: tables.resources, Key: { pk: `RES#${id}` }, ConsistentRead: true }),
    );
    return Number(r.Item?.packageRefs ?? 0);
  },
}));
