import type { AuditLog, AuditTrail, StoredAuditEvent } from '../../ports/audit-log';
import { HEAD_SEQ } from './audit-commit';
import { queryAll } from './query-all';

/**
 * The hash-chained audit log, read. Per subject, a head item (seq 0) holds the last sequence number and
 * hash; events are written only inside the transaction of the change they record (audit-commit.ts,
 * decision 283), each conditional on the head not having moved, so concurrent writers get dense
 * sequence numbers and one unbroken chain. No code path updates or deletes an event; in AWS the table
 * export and the audit bucket add Object Lock.
 */
export class DynamoAuditLog implements AuditLog {
  constructor(private readonly table: string) {}

  async history(subject: string): Promise<AuditTrail> {
    // the head (seq 0) comes first: it lets the verifier notice events removed from the end
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :s AND seq >= :head',
      ExpressionAttributeValues: { ':s': subject, ':head': HEAD_SEQ },
      ConsistentRead: true,
    });
    const headItem = items.find((i) => i.seq === HEAD_SEQ);
    const events = items
      .filter((i) => i.seq !== HEAD_SEQ)
      .map((i) => {
        const {
          pk: _pk,
          kind: _k,
          ...rest
        } = i as unknown as StoredAuditEvent & { pk: string; kind: string };
        return rest;
      });
    const head = headItem ? { lastSeq: Number(headItem.lastSeq), lastHash: String(headItem.lastHash) } : null;
    return { events, head };
  }
}
