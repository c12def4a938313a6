import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent, AuditLog, StoredAuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

/**
 * Append-only audit log: one item per event, keyed by subject and a sequence number. Writes are
 * conditional on the key not existing, so no call can overwrite an event; no code path deletes one.
 */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly table: string,
    private readonly clock: Clock,
  ) {}

  async append(event: AuditEvent): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const at = this.clock.now();
      // microsecond-ish sequence: time-ordered, with a random tail against collisions
      const seq = at.getTime() * 1000 + Math.floor(Math.random() * 1000);
      try {
        await dynamo().send(
          new PutCommand({
            TableName: this.table,
            Item: { ...event, pk: event.subject, seq, at: at.toISOString(), kind: 'AUDIT' },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return;
      } catch (e) {
        if (!(e instanceof ConditionalCheckFailedException)) throw e;
      }
    }
    throw new Error('could not append audit event after 5 attempts');
  }

  async history(subject: string): Promise<StoredAuditEvent[]> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :s',
      ExpressionAttributeValues: { ':s': subject },
      ConsistentRead: true,
    });
    return items.map((i) => {
      const { pk: _pk, kind: _k, ...rest } = i as unknown as StoredAuditEvent & { pk: string; kind: string };
      return rest;
    });
  }
}
