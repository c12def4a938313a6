import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { auditObjectBody, auditObjectKey, eventOfItem } from '../../shared/domain/audit-copy';
import { s3 } from '../adapters/s3/client';
import { bucketName } from '../config/env';
import { loggerFor } from '../middleware/logging';

const log = loggerFor('auditCopy');

/**
 * The audit table's stream (new AUDIT items; the event source mapping filters) → one object per event in
 * the Object Lock audit bucket (decision 097). The write is conditional (If-None-Match): a record handed
 * in again finds its object there and is done; in AWS a second version of a locked object never appears.
 * A failed write is reported as a batch item failure and retried by the event source.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const bucket = bucketName('audit');
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (!image || image.kind?.S !== 'AUDIT') continue;
    const stored = eventOfItem(unmarshall(image as Record<string, AttributeValue> as never));
    const body = auditObjectBody(stored);
    try {
      await s3().send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: auditObjectKey(stored.subject, Number(stored.seq)),
          Body: body,
          ContentType: 'application/json',
          // Object Lock buckets require an integrity header on every PUT
          ContentMD5: createHash('md5').update(body).digest('base64'),
          IfNoneMatch: '*',
        }),
      );
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 412) continue; // copied before: the object exists and is locked
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
