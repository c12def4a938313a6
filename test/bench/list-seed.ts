import { randomBytes, randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { localDynamoConfig, localTable } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { seededApproverKeys } from '../support/seeded-approvers';
import { startStackProcess } from '../support/stack-process';
import { attachNewDcc, type Client, expectStatus, SEEDED } from './client';
import { onInterrupt, progress } from './report';

/**
 * The list benches' stack and data (lists.ts, growth.ts): a local stack with a document client on its
 * DynamoDB Local, one real package made through the API, and copies of its stored item.
 */
export const TABLE = localTable('packages');
/** copies `seed` writes unless told (the lists bench's 10,000) */
export const PACKAGES = 10_000;

export type Item = Record<string, unknown>;

/**
 * A local stack for a list bench (stopped on Ctrl-C) and a document client on its DynamoDB Local; `env`
 * goes to the stack process (e.g. DYNAMODB_HEAP, infra/local/emulators.ts).
 */
export async function benchStack(env: Record<string, string> = {}) {
  progress('starting a local stack');
  const stack = await startStackProcess({ LOGIN_MAX_FAILURES_PER_SOURCE: '100000', ...env });
  const forget = onInterrupt(() => stack.stop());
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient(localDynamoConfig(stack.dynamoEndpoint)), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { stack, forget, doc };
}

/**
 * One real package made through the API (upload, generate, DCC, notify): the shape every copy takes.
 * `name` names the package and its resource (one stack may hold several: the votes bench).
 */
export async function templatePackage(
  api: Client,
  name = 'bench-list',
): Promise<{ id: string; token: string }> {
  const dev = await api.login(SEEDED.designDev);
  const ids = Object.fromEntries(
    await Promise.all(
      (['designTest', 'lead', 'reliability', 'release'] as const).map(
        async (k) => [k, (await api.login(SEEDED[k])).id] as const,
      ),
    ),
  );
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(4096))]), 'bench-list.bin');
  const res = expectStatus(
    await api.call<{ resource: string }>(`/resources/patch/dev?name=${name}-patch`, {
      method: 'POST',
      token: dev.token,
      body: form,
    }),
    201,
    'upload',
  );
  const resourceId = (JSON.parse(res.body.resource) as { id: string }).id;
  const gen = expectStatus(
    await api.call<{ package: string }>(`/resources/${resourceId}/generate-package`, {
      method: 'POST',
      token: dev.token,
      body: {
        packageName: `${name}-template`,
        packageType: 'DEV_SIGNED',
        note: 'Raises the occlusion alarm threshold of the infusion pump to 800 mmHg',
      },
    }),
    201,
    'generate-package',
  );
  const pkgId = (JSON.parse(gen.body.package) as Package).id;
  await attachNewDcc(api, dev.token, pkgId, `PUMP-${name.toUpperCase()}`);
  expectStatus(
    await api.call(`/packages/${pkgId}/notify-approvers`, {
      method: 'POST',
      token: dev.token,
      body: {
        approvers: seededApproverKeys('DEV_SIGNED').map(({ role, key }) => ({ role, id: ids[key] })),
        signer: ids.release,
      },
    }),
    200,
    'notify',
  );
  return { id: pkgId, token: dev.token };
}

/**
 * 10,000 copies of the stored template item (new id, key, name and times), written with BatchWrite by
 * `writers` requests at a time; `from`: the first copy's number (names and times go on from there).
 */
export async function seed(
  doc: DynamoDBDocumentClient,
  template: Item,
  count = PACKAGES,
  from = 1,
  writers = 4,
): Promise<void> {
  const base = Date.parse(String(template.createdAt));
  const items: Item[] = [];
  for (let i = from; i < from + count; i++) {
    const id = randomUUID();
    const at = new Date(base - i * 60_000).toISOString();
    items.push({
      ...template,
      pk: `PKG#${id}`,
      id,
      name: `bench-package-${String(i).padStart(5, '0')}`,
      createdAt: at,
      updatedAt: at,
      // delivered copies: each delivery started when the copy was made, as deliveries spread over time
      ...(template.deliveryStartedAt ? { deliveryStartedAt: at } : {}),
    });
  }
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let request: BatchWriteCommandOutput['UnprocessedItems'] = {
        [TABLE]: batch.map((Item) => ({ PutRequest: { Item } })),
      };
      while (request && Object.keys(request).length > 0) {
        const r: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: request }));
        request = r.UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, worker));
}
