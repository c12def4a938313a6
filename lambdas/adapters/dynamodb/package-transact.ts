import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteCommand. */
export type PackageTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A Put of a new item: refused when an item with its `pk` exists (a name claim, a new package). */
export const putIfAbsent = (table: string, item: Record<string, unknown>): PackageTransactItem => ({
  Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Whether a write was refused by a condition (single or in a transaction): a lost race, not a fault. */
export function refusedByCondition(e: unknown): boolean {
  return e instanceof TransactionCanceledException || e instanceof ConditionalCheckFailedException;
}

/** Whether the transaction's item at `index` failed its condition. */
export function failedAt(e: unknown, index: number): boolean {
  return (
    e instanceof TransactionCanceledException &&
    e.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}
