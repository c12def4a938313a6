import { beforeAll } from 'vitest';
import { DynamoAuditSearch } from '../../../lambdas/adapters/dynamodb/audit-search';
import { ManualClock } from '../../../lambdas/adapters/memory/clock';
import { auditLogContract } from '../../contracts/audit-log.contract';
import { freshTables } from './fresh-tables';

// the same contract runs on the memory adapter: lambdas/adapters/memory/audit-log.contract.test.ts
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables('audit');
});

auditLogContract('DynamoDB', async () => {
  const clock = new ManualClock();
  return { clock, log: new DynamoAuditSearch(tables.audit, { table: () => tables.audit, clock }) };
});
