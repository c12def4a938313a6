import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { timeBounds } from '../../../shared/domain/audit-search';
import type {
  AuditEvent,
  AuditPosition,
  AuditSearch,
  AuditSearchPage,
  AuditSearchQuery,
  StoredAuditEvent,
} from '../../ports/audit-log';
import { dynamo } from '../aws-clients';
import { type AuditTable, writeRecorded } from './audit-commit';
import { DynamoAuditLog } from './audit-log';

/** A Query of a filtered search reads at most this many items per call (the page's budget bounds the total). */
const FILTERED_BATCH = 500;

type Source = { input: QueryCommandInput; startKey: (p: AuditPosition) => Record<string, unknown> };

/**
 * Where a search reads (decision 346): one subject → the table itself (pk = subject, newest seq first);
 * one actor → the `byActor` index (actorId, at); else → the `byKind` index (kind AUDIT, at). The date range
 * is a key condition on the indexes; what no key serves (the action, a kind of subject, a date range on one
 * subject, the actor beside a subject) is a FilterExpression, so such a page may examine more than it
 * returns: it stops at the query's budget and says how many it examined.
 */
function sourceOf(table: string, q: AuditSearchQuery): Source {
  const f = q.filter;
  const { from, to } = timeBounds(f);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  const range = (key: string): string => {
    if (from) values[':from'] = from;
    if (to) values[':to'] = to;
    if (from || to) names['#at'] = 'at';
    if (from && to) return ` AND ${key} BETWEEN :from AND :to`;
    if (from) return ` AND ${key} >= :from`;
    if (to) return ` AND ${key} <= :to`;
    return '';
  };
  if (f.action) {
    names['#action'] = 'action';
    values[':action'] = f.action;
    filters.push('#action = :action');
  }
  if (f.subjectKind) {
    values[':kindPrefix'] = `${f.subjectKind}#`;
    filters.push('begins_with(pk, :kindPrefix)');
  }
  let input: QueryCommandInput;
  let startKey: Source['startKey'];
  if (f.subject) {
    values[':subject'] = f.subject;
    values[':first'] = 1;
    if (f.actor) {
      values[':actor'] = f.actor;
      filters.push('actorId = :actor');
    }
    const r = range('#at');
    if (r) filters.push(r.replace(/^ AND /, ''));
    input = { TableName: table, KeyConditionExpression: 'pk = :subject AND seq >= :first' };
    startKey = (p) => ({ pk: p.pk, seq: p.seq });
  } else if (f.actor) {
    values[':actor'] = f.actor;
    input = {
      TableName: table,
      IndexName: 'byActor',
      KeyConditionExpression: `actorId = :actor${range('#at')}`,
    };
    startKey = (p) => ({ actorId: f.actor, at: p.at, pk: p.pk, seq: p.seq });
  } else {
    values[':kind'] = 'AUDIT';
    input = { TableName: table, IndexName: 'byKind', KeyConditionExpression: `kind = :kind${range('#at')}` };
    startKey = (p) => ({ kind: 'AUDIT', at: p.at, pk: p.pk, seq: p.seq });
  }
  return {
    input: {
      ...input,
      ScanIndexForward: false,
      ExpressionAttributeValues: values,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    },
    startKey,
  };
}

/** A stored item as an event: the table's own keys dropped (the hash covers exactly the rest). */
function eventOf(item: Record<string, unknown>): StoredAuditEvent {
  const { pk: _pk, kind: _kind, ...rest } = item;
  return rest as unknown as StoredAuditEvent;
}

const positionOf = (item: Record<string, unknown>): AuditPosition => ({
  pk: String(item.pk),
  seq: Number(item.seq),
  at: String(item.at ?? ''),
});

/** The audit log read across subjects, on DynamoDB; an export's event written alone (its own commit). */
export class DynamoAuditSearch extends DynamoAuditLog implements AuditSearch {
  constructor(
    private readonly tableName: string,
    private readonly audit: AuditTable,
  ) {
    super(tableName);
  }

  async search(q: AuditSearchQuery): Promise<AuditSearchPage> {
    const { input, startKey } = sourceOf(this.tableName, q);
    const filtered = input.FilterExpression !== undefined;
    const events: StoredAuditEvent[] = [];
    let examined = 0;
    let start = q.after ? startKey(q.after) : undefined;
    while (events.length < q.limit && examined < q.budget) {
      const want = filtered ? Math.min(FILTERED_BATCH, q.budget - examined) : q.limit - events.length;
      const r = await dynamo().send(new QueryCommand({ ...input, Limit: want, ExclusiveStartKey: start }));
      const items = r.Items ?? [];
      for (const [i, item] of items.entries()) {
        events.push(eventOf(item));
        if (events.length === q.limit) {
          // the page is full mid-batch: the next page starts after this item (the rest is read again)
          const more = i < items.length - 1 || r.LastEvaluatedKey !== undefined;
          examined += filtered ? (r.ScannedCount ?? items.length) : i + 1;
          return { events, next: more ? positionOf(item) : null, examined };
        }
      }
      examined += r.ScannedCount ?? items.length;
      if (!r.LastEvaluatedKey) return { events, next: null, examined };
      start = r.LastEvaluatedKey;
    }
    return { events, next: start ? positionOf(start) : null, examined };
  }

  recordOnly(events: readonly AuditEvent[]): Promise<void> {
    return writeRecorded(this.audit, [], events);
  }
}
