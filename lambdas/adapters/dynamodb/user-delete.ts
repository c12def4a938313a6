import type { UserRecord } from '../../ports/user-repository';
import type { TransactItem } from './transact';

/** A passkey's item in the users table (decision 322): one per credential, owned by one account. */
export const passkeyPk = (id: string) => `PASSKEY#${id}`;

/**
 * The items that delete an account in one transaction: the user record, its passkeys, and its email claim
 * kept (marked deleted) so the address cannot register again. A deleted account leaves no credential that
 * still names it. The user record goes only while it lists the passkeys read with it: a passkey added
 * meanwhile cancels the transaction (index 0) instead of staying behind, and the caller reads again.
 */
export function accountDeletion(
  table: string,
  keys: { user: string; email: string },
  user: Pick<UserRecord, 'id' | 'passkeyIds'>,
  at: string,
): TransactItem[] {
  const ids = user.passkeyIds ?? [];
  const sameKeys =
    ids.length > 0
      ? { ConditionExpression: 'attribute_exists(pk) AND passkeyIds = :ids', values: { ':ids': ids } }
      : {
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(passkeyIds) OR size(passkeyIds) = :none)',
          values: { ':none': 0 },
        };
  return [
    {
      Delete: {
        TableName: table,
        Key: { pk: keys.user },
        ConditionExpression: sameKeys.ConditionExpression,
        ExpressionAttributeValues: sameKeys.values,
      },
    },
    ...ids.map((id) => ({ Delete: { TableName: table, Key: { pk: passkeyPk(id) } } })),
    {
      Update: {
        TableName: table,
        Key: { pk: keys.email },
        UpdateExpression: 'SET deletedAt = :at, kind = :k, userId = :id',
        ExpressionAttributeValues: { ':at': at, ':k': 'EMAIL', ':id': user.id },
      },
    },
  ];
}
