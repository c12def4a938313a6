import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { nameKey, toItem } from '../../lambdas/adapters/dynamodb/package-items';
import type { PackageRecord } from '../../lambdas/ports/package-repository';

/** DynamoDB's BatchWriteItem limit: 25 requests a call. */
const BATCH = 25;
/** UnprocessedItems are written again after a short pause that doubles, up to this many attempts. */
const MAX_ATTEMPTS = 12;

export interface SeedOptions {
  /** the first copy's number: names and times go on from there (default 1) */
  from?: number;
  /** BatchWrite calls in flight at once (default 8) */
  writers?: number;
  /** called after every finished batch with the packages written so far */
  onProgress?: (written: number) => void;
  /** `performance.now()` after which no new batch starts (a time bound); the count written is returned */
  stopAt?: number;
}

/**
 * The items the product writes for one package (DynamoPackageRepository.create): the package item by the
 * repository's own mapping (`toItem`: list, delivery, draft and approval index attributes) and its
 * name claim. Copies of a real package made through the API, so every index sees real items.
 */
export function packageItems(pkg: PackageRecord): Record<string, unknown>[] {
  return [toItem(pkg), { ...nameKey(pkg.name), kind: 'NAME', packageId: pkg.id }];
}

/** `count` copies of `template`, each with its own id, name (`bench-package-000042`) and times. */
export function* packageCopies(template: PackageRecord, count: number, from = 1): Generator<PackageRecord> {
  const base = Date.parse(template.createdAt);
  for (let i = from; i < from + count; i++) {
    const at = new Date(base - i * 60_000).toISOString();
    yield {
      ...template,
      id: randomUUID(),
      name: `bench-package-${String(i).padStart(6, '0')}`,
      createdAt: at,
      updatedAt: at,
      // delivered copies: each delivery started when the copy was made, as deliveries spread over time
      ...(template.deliveryStartedAt ? { deliveryStartedAt: at } : {}),
    };
  }
}

/**
 * Writes `count` copies of `template` straight into the packages table (not through the API) with
 * BatchWriteItem: 25 items a call, `writers` calls at a time, UnprocessedItems retried with a doubling
 * pause. Items are built lazily, batch by batch, so 100,000 copies never sit in memory at once. Returns
 * the packages written: fewer than `count` when `stopAt` came first.
 */
export async function seedPackages(
  doc: DynamoDBDocumentClient,
  table: string,
  template: PackageRecord,
  count: number,
  opts: SeedOptions = {},
): Promise<number> {
  const { from = 1, writers = 8, onProgress, stopAt = Number.POSITIVE_INFINITY } = opts;
  const copies = packageCopies(template, count, from);
  let written = 0;
  // a package's two items go in the same call, so a batch holds 12 packages (24 items)
  const nextBatch = (): PackageRecord[] => {
    const out: PackageRecord[] = [];
    for (let r = copies.next(); !r.done; r = copies.next()) {
      out.push(r.value);
      if (out.length * 2 + 2 > BATCH) break;
    }
    return out;
  };
  const write = async (pkgs: PackageRecord[]) => {
    let request: BatchWriteCommandOutput['UnprocessedItems'] = {
      [table]: pkgs.flatMap(packageItems).map((Item) => ({ PutRequest: { Item } })),
    };
    for (let attempt = 1; request && Object.keys(request).length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS)
        throw new Error(`BatchWrite still left items unprocessed after ${MAX_ATTEMPTS} attempts`);
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.min(2_000, 25 * 2 ** attempt)));
      const r: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: request }));
      request = r.UnprocessedItems;
    }
    written += pkgs.length;
    onProgress?.(written);
  };
  const worker = async () => {
    while (performance.now() < stopAt) {
      const pkgs = nextBatch();
      if (pkgs.length === 0) return;
      await write(pkgs);
    }
  };
  await Promise.all(Array.from({ length: writers }, worker));
  return written;
}
