import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { auditObjectBody, auditObjectKey, eventOfItem } from '../../shared/domain/audit-copy';
import { auditObjectStore } from '../composition-audit-copy';
import { loggerFor } from '../observability/logger';

const log = loggerFor('auditCopy');

/**
 * The audit table's stream (new AUDIT items; the event source mapping filters) → one object per event in
 * the Object Lock audit bucket (decision 097). The write is conditional (If-None-Match): a record handed
 * in again finds its object there and is done; in AWS a second version of a locked object never appears.
 * A failed write is reported as a batch item failure and retried by the event source.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const store = auditObjectStore();
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (!image || image.kind?.S !== 'AUDIT') continue;
    const stored = eventOfItem(unmarshall(image as Record<string, AttributeValue> as never));
    try {
      await store.putOnce(auditObjectKey(stored.subject, Number(stored.seq)), auditObjectBody(stored));
    } catch (e) {
      log.error('audit event not copied', {
        kind: 'auditCopy',
        subject: stored.subject,
        seq: stored.seq,
        reason: (e as Error).message,
      });
      failures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
    }
  }
  return { batchItemFailures: failures };
}
