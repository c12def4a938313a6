import { auditLogContract } from '../../../test/contracts/audit-log.contract';
import { MemoryAuditLog } from './audit-log';
import { ManualClock } from './clock';

// the same contract runs on DynamoDB Local: test/integration/ports/audit-log.test.ts
auditLogContract('memory', async () => {
  const clock = new ManualClock();
  return { clock, log: new MemoryAuditLog(clock) };
});
