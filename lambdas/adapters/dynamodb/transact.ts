import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws-clients';
import { queryAll } from './query-all';

/**
 * The DynamoDB writes and reads the adapters repeat: conditional Puts (new item, expected version),
 * transactions that say which of their items failed its condition, conditional Updates that answer false
 * instead of throwing, consistent reads by key, and Queries of one kind.
 */

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

/** True when `e` cancelled a transaction because the condition of its item number `index` failed. */
export function cancelledBy(e: unknown, index: number): boolean {
  return (
    e instanceof TransactionCanceledException &&
    e.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}

/** True when `e` is a failed condition of a single write. */
export const conditionFailed = (e: unknown): boolean =>
  e instanceof ConditionalCheckFailedException ||
  (e as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** A transaction Put that creates the item only when no item has its key (`pk`). */
export function putNew(table: string, item: Item): TransactItem {
  return { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** A transaction Put that replaces the item only while its `version` is still `expectedVersion`. */
export function putAtVersion(table: string, item: Item, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: item,
      ConditionExpression: '#v = :v',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}

/** A transaction Delete of an item that must still belong to `userId` (a passkey, a company identity's link). */
export function deleteOwned(table: string, key: Item, userId: string): TransactItem {
  return {
    Delete: {
      TableName: table,
      Key: key,
      ConditionExpression: 'userId = :u',
      ExpressionAttributeValues: { ':u': userId },
    },
  };
}

/** A transaction Delete of an item that must still exist. */
export function deleteExisting(table: string, key: Item): TransactItem {
  return { Delete: { TableName: table, Key: key, ConditionExpression: 'attribute_exists(pk)' } };
}

/** Creates one item, refused (ConditionalCheckFailedException) when an item has its key (`pk`). */
export async function createItem(table: string, item: Item): Promise<void> {
  await dynamo().send(
    new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

/** Writes all items in one transaction (all or nothing). */
export async function transact(items: TransactItem[]): Promise<void> {
  await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
}

/** Sends one Update; false when its condition failed (the item is not as expected), other errors throw. */
export async function updateIf(input: UpdateCommandInput): Promise<boolean> {
  try {
    await dynamo().send(new UpdateCommand(input));
    return true;
  } catch (e) {
    if (conditionFailed(e)) return false;
    throw e;
  }
}

/** One item by its key, read consistently; undefined when there is none. */
export async function getItem(table: string, key: Item): Promise<Item | undefined> {
  const r = await dynamo().send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
  return r.Item;
}

/**
 * Every item of one `kind` (the byKind index), following pagination; `more` adds to the Query (a filter,
 * a projection, `ScanIndexForward: false` for newest first) and its values to `:k`.
 */
export function queryKind(
  table: string,
  kind: string,
  more: Omit<QueryCommandInput, 'TableName' | 'IndexName' | 'KeyConditionExpression'> = {},
): Promise<Item[]> {
  return queryAll({
    TableName: table,
    IndexName: 'byKind',
    KeyConditionExpression: 'kind = :k',
    ...more,
    ExpressionAttributeValues: { ':k': kind, ...more.ExpressionAttributeValues },
  });
}

/**
 * Deletes the item of `key` and answers what it held; null when there was none (a single-use item taken
 * already): one conditional Delete, so two takers never both get it.
 */
export async function takeItem(table: string, key: Item): Promise<Item | null> {
  try {
    const r = await dynamo().send(
      new DeleteCommand({
        TableName: table,
        Key: key,
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    return r.Attributes ?? null;
  } catch (e) {
    if (conditionFailed(e)) return null;
    throw e;
  }
}
