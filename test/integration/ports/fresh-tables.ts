import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { localAwsEnv, localDynamoConfig } from '../../../infra/local/local-aws';
import { provisionTables } from '../../../infra/local/provision';
import type { TableName } from '../../../shared/api/routes';

const ALL: readonly TableName[] = ['users', 'resources', 'packages', 'dcc', 'audit', 'outbox'];

/**
 * Tables of their own for one contract file, on the DynamoDB Local the integration run already started
 * (test/support/global-setup.ts): created by the stack's own provisioning (infra/local/provision.ts, so
 * keys and indexes are the deployed ones) under a name no other file uses. A contract's lists and
 * counts then see only what the contract wrote, and no emulator is started per file. The adapters'
 * client reads its endpoint from the environment on first use, as in the handlers.
 */
export async function freshTables(label: string): Promise<Record<TableName, string>> {
  const endpoint = inject('dynamoEndpoint');
  Object.assign(process.env, localAwsEnv({ dynamo: endpoint }));
  const prefix = `ct-${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const names = Object.fromEntries(ALL.map((t) => [t, `${prefix}-${t}`])) as Record<TableName, string>;
  const client = new DynamoDBClient(localDynamoConfig(endpoint));
  try {
    await provisionTables(client, names);
  } finally {
    client.destroy();
  }
  return names;
}
