import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { localBucket, localTable } from '../../infra/local/local-aws';
import { type ChainedEvent, eventHash, GENESIS_HASH } from '../../shared/domain/audit-chain';
import { auditObjectBody, auditObjectKey, eventOfItem } from '../../shared/domain/audit-copy';

/**
 * What a careful forger would do to hide a decision (tests of audit:verify only, straight on DynamoDB
 * Local and s3rver, around the product): remove one event of a subject and rewrite the chain after it,
 * renumbered and re-hashed, with its head and its bucket copy, so that every chain still verifies. Only
 * the completeness check can then notice that the state holds a decision the record lacks.
 */
export async function removeEventAndRechain(
  ddb: DynamoDBDocumentClient,
  s3: S3Client,
  subject: string,
  seq: number,
): Promise<ChainedEvent> {
  const table = localTable('audit');
  const bucket = localBucket('audit');
  const r = await ddb.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :s AND seq > :zero',
      ExpressionAttributeValues: { ':s': subject, ':zero': 0 },
      ConsistentRead: true,
    }),
  );
  const events = (r.Items ?? []).map((i) => eventOfItem(i)).sort((a, b) => a.seq - b.seq);
  const removed = events.find((e) => e.seq === seq);
  if (!removed) throw new Error(`${subject} has no event ${seq}`);
  const later = events.filter((e) => e.seq > seq);
  let prevHash = events.find((e) => e.seq === seq - 1)?.hash ?? GENESIS_HASH;
  const rewritten = later.map((e) => {
    const body = { ...e, seq: e.seq - 1, prevHash, hash: undefined };
    const next = { ...body, hash: eventHash(body) } as ChainedEvent;
    prevHash = next.hash;
    return next;
  });
  const last = events.at(-1)!.seq;
  await ddb.send(new DeleteCommand({ TableName: table, Key: { pk: subject, seq: last } }));
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: auditObjectKey(subject, last) }));
  for (const e of rewritten.length ? rewritten : []) {
    await ddb.send(new PutCommand({ TableName: table, Item: { ...e, pk: subject, kind: 'AUDIT' } }));
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: auditObjectKey(subject, e.seq), Body: auditObjectBody(e) }),
    );
  }
  await ddb.send(
    new PutCommand({
      TableName: table,
      Item: { pk: subject, seq: 0, kind: 'AUDIT_HEAD', lastSeq: last - 1, lastHash: prevHash },
    }),
  );
  return removed;
}
