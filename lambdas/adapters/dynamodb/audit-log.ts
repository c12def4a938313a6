import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type ChainedEvent, eventHash, GENESIS_HASH } from '../../../shared/domain/audit-chain';
import type { AuditEvent, AuditLog, AuditTrail, StoredAuditEvent } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import { queryAll } from './query-all';
import { getItem, putNew, transact } from './transact';

const HEAD_SEQ = 0;
const MAX_ATTEMPTS = 200;
const BACKOFF_CAP_MS = 2000;

/**
 * Append-only, hash-chained audit log. Per subject, a head item (seq 0) holds the last sequence number
 * and hash; an append writes the next event and moves the head in one transaction, conditional on the
 * head not having moved, so concurrent appends get dense sequence numbers and one unbroken chain. No
 * code path updates or deletes an event; in AWS the table export and the audit bucket add Object Lock.
 */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly table: string,
    private readonly clock: Clock,
  ) {}

  async append(event: AuditEvent): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const head = await getItem(this.table, { pk: event.subject, seq: HEAD_SEQ });
      const lastSeq = Number(head?.lastSeq ?? 0);
      const prevHash = String(head?.lastHash ?? GENESIS_HASH);
      const body: Omit<ChainedEvent, 'hash'> = {
        seq: lastSeq + 1,
        at: this.clock.now().toISOString(),
        subject: event.subject,
        action: event.action,
        meaning: event.meaning,
        actorId: event.actorId,
        actorName: event.actorName,
        actorRole: event.actorRole,
        details: event.details
          ? (JSON.parse(JSON.stringify(event.details)) as Record<string, unknown>)
          : undefined,
        prevHash,
      };
      const hash = eventHash(body);
      try {
        await transact([
          {
            Put: {
              TableName: this.table,
              Item: {
                pk: event.subject,
                seq: HEAD_SEQ,
                kind: 'AUDIT_HEAD',
                lastSeq: body.seq,
                lastHash: hash,
              },
              ConditionExpression: head ? 'lastSeq = :last' : 'attribute_not_exists(pk)',
              ExpressionAttributeValues: head ? { ':last': lastSeq } : undefined,
            },
          },
          putNew(this.table, { ...body, pk: event.subject, hash, kind: 'AUDIT' }),
        ]);
        return;
      } catch (e) {
        if (!(e instanceof TransactionCanceledException)) throw e;
        // Another append moved the head first: back off with full jitter and build on the new head. The
        // cap is wide on purpose: with many appends at once (a hundred votes on one package) a short cap
        // keeps every loser retrying together, the store saturates and the appends outlast the request.
        await new Promise((r) =>
          setTimeout(r, Math.random() * Math.min(BACKOFF_CAP_MS, 20 * 2 ** Math.min(attempt, 7))),
        );
      }
    }
    throw new Error(`could not append an audit event to ${event.subject} after ${MAX_ATTEMPTS} attempts`);
  }

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
