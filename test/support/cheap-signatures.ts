import { randomBytes, scryptSync } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { localTable } from '../../infra/local/local-aws';

/**
 * A password as the product stores it (`scrypt$N$r$p$salt$hash`, lambdas/services/password-hasher.ts),
 * with cheap parameters (N=2^10): the stored form carries them, so the same check verifies it in
 * milliseconds instead of the seconds N=2^17 takes on a busy machine. Test stacks only.
 */
export function cheapPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Stores the same password of these accounts with cheap parameters, straight in a test stack's users
 * table: every sign-in and electronic signature of theirs is then fast, through the same code path. The
 * hash is no part of any audit rule; the crash matrix and the SIGKILL test sign hundreds of decisions.
 */
export async function cheapenPasswords(
  ddb: DynamoDBDocumentClient,
  accounts: readonly { email: string; password: string }[],
): Promise<void> {
  const table = localTable('users');
  for (const a of accounts) {
    const claim = await ddb.send(
      new GetCommand({ TableName: table, Key: { pk: `EMAIL#${a.email.toLowerCase()}` } }),
    );
    const userId = claim.Item?.userId;
    if (typeof userId !== 'string') throw new Error(`no account ${a.email}`);
    await ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `USER#${userId}` },
        UpdateExpression: 'SET passwordHash = :h',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':h': cheapPasswordHash(a.password) },
      }),
    );
  }
}
