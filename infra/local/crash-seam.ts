import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { s3 } from '../../lambdas/adapters/s3/client';
import { ses } from '../../lambdas/adapters/ses/ses-mailer';
import type { InitializeStack } from './sdk-middleware';

/**
 * The crash seam (local stack only; docs/decisions/291-crash-seam.md): ends one function invocation after
 * its k-th storage write, as a killed Lambda ends, so tests can prove that every step survives a crash
 * at every write. Off unless the stack starts with FRP_CRASH_SEAM=1; never in a Lambda bundle (its test
 * bundles every handler and worker and looks for this file and its marker).
 *
 * - A gateway request carries the crash point in the header `x-frp-crash-seam-after: k` (read and stripped
 *   before the handler sees the event); any invocation (a worker's above all) can also be armed through the
 *   control routes below.
 * - Within an invocation (AsyncLocalStorage) every storage WRITE is counted: DynamoDB Put/Update/Delete/
 *   TransactWrite/BatchWrite, S3 Put/Copy/Delete/DeleteObjects/UploadPart/CompleteMultipartUpload, SES
 *   SendEmail, and the local asynchronous invoke of a worker. Once the k-th write is under way, every
 *   later storage call of the invocation fails, reads too: nothing runs after the kill, not even a
 *   catch block's compensation.
 * - A crashed invocation ends as a crashed Lambda does: the gateway answers API Gateway's 502, the async
 *   invoker retries the event, the stream poller hands the batch in again.
 * Every invocation is logged (target, writes, operations, crash point) so a clean run tells how many
 * writes a step makes.
 */
export const CRASH_SEAM_ENV = 'FRP_CRASH_SEAM';
export const CRASH_HEADER = 'x-frp-crash-seam-after';
export const CRASH_CONTROL_PATH = '/__crash-seam';

export const crashSeamEnabled = (): boolean => process.env[CRASH_SEAM_ENV] === '1';

const DYNAMO_WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
  // the document client's names of the same calls
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
]);
const S3_WRITES = new Set([
  'PutObjectCommand',
  'CopyObjectCommand',
  'DeleteObjectCommand',
  'DeleteObjectsCommand',
  'UploadPartCommand',
  'CompleteMultipartUploadCommand',
]);
const SES_WRITES = new Set(['SendEmailCommand']);

/** What the seam records of one invocation. */
export interface InvocationRecord {
  n: number;
  /** `route:<id>` or `worker:<id>` */
  target: string;
  crashAfter: number | null;
  writes: number;
  /** the storage calls in order (`w:` writes, `r:` reads, `x:` refused after the crash) */
  ops: string[];
  crashed: boolean;
  done: boolean;
}

/** Thrown at every storage call after the crash point: the function is dead. */
export class CrashSeamKill extends Error {
  override name = 'CrashSeamKill';
}

const scope = new AsyncLocalStorage<InvocationRecord>();
const log: InvocationRecord[] = [];
const LOG_LIMIT = 5000;
/** target → crash points armed for its next invocations, in order */
const armed = new Map<string, number[]>();
let counter = 0;

/** Counts one storage call of the current invocation; throws when the invocation is past its crash point. */
export function onStorageCall(op: string, write: boolean): void {
  const inv = scope.getStore();
  if (!inv) return;
  if (inv.crashed) {
    inv.ops.push(`x:${op}`);
    throw new CrashSeamKill(`crash seam: ${inv.target} was killed after write ${inv.crashAfter}`);
  }
  inv.ops.push(`${write ? 'w' : 'r'}:${op}`);
  if (!write) return;
  inv.writes += 1;
  // the k-th write goes through; the function dies as it completes
  if (inv.crashAfter !== null && inv.writes >= inv.crashAfter) inv.crashed = true;
}

/** The crash point armed for the next invocation of `target`, if any (taken). */
function takeArmed(target: string): number | null {
  const queue = armed.get(target);
  const k = queue?.shift();
  if (queue && queue.length === 0) armed.delete(target);
  return k ?? null;
}

/**
 * Runs `fn` as one invocation of `target` (crash point `crashAfter`, else one armed for the target, else
 * none); its record says whether it was killed. Outside the seam (not enabled) it just runs `fn`.
 */
export async function asInvocation<T>(
  target: string,
  crashAfter: number | null,
  fn: () => Promise<T>,
): Promise<{ value?: T; error?: unknown; record: InvocationRecord }> {
  if (!crashSeamEnabled()) {
    const record = { n: 0, target, crashAfter: null, writes: 0, ops: [], crashed: false, done: true };
    try {
      return { value: await fn(), record };
    } catch (error) {
      return { error, record };
    }
  }
  const record: InvocationRecord = {
    n: ++counter,
    target,
    crashAfter: crashAfter ?? takeArmed(target),
    writes: 0,
    ops: [],
    crashed: false,
    done: false,
  };
  log.push(record);
  if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
  try {
    const value = await scope.run(record, fn);
    return { value, record };
  } catch (error) {
    return { error, record };
  } finally {
    record.done = true;
  }
}

/** The crash point a request asks for, and the event's headers without it (the handler never sees it). */
export function crashPointOf(headers: Record<string, string | string[] | undefined>): number | null {
  const raw = Object.entries(headers).find(([k]) => k.toLowerCase() === CRASH_HEADER)?.[1];
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export function withoutCrashHeader<T extends Record<string, unknown> | null>(headers: T): T {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== CRASH_HEADER)) as T;
}

/**
 * The gateway's call of a route's handler through the seam: the crash point read from the request and
 * stripped off the event; a killed invocation throws (the gateway answers as for a crashed function).
 */
export async function asRouteInvocation<
  E extends {
    headers: Record<string, string | undefined>;
    multiValueHeaders: Record<string, string[] | undefined>;
  },
  R,
>(routeId: string, event: E, run: (event: E) => Promise<R>): Promise<R> {
  if (!crashSeamEnabled()) return run(event);
  const crashAfter = crashPointOf(event.headers);
  const clean = {
    ...event,
    headers: withoutCrashHeader(event.headers),
    multiValueHeaders: withoutCrashHeader(event.multiValueHeaders),
  };
  const { value, error, record } = await asInvocation(`route:${routeId}`, crashAfter, () => run(clean));
  if (record.crashed)
    throw new CrashSeamKill(`crash seam: route ${routeId} killed after write ${record.crashAfter}`);
  if (error !== undefined) throw error;
  return value as R;
}

type Middleware = Parameters<InitializeStack['add']>[0];
const counting =
  (writes: Set<string>): Middleware =>
  (next, context) =>
  async (args) => {
    const op = context.commandName ?? '?';
    onStorageCall(op, writes.has(op));
    return next(args);
  };

let installed = false;
/** Adds the counting middleware to the clients every handler and worker uses (once per process). */
export function installCrashSeam(): void {
  if (installed || !crashSeamEnabled()) return;
  installed = true;
  const add = (stack: unknown, mw: Middleware, name: string) =>
    (stack as InitializeStack).add(mw, { step: 'initialize', name });
  add(dynamo().middlewareStack, counting(DYNAMO_WRITES), 'crashSeamDynamo');
  add(s3().middlewareStack, counting(S3_WRITES), 'crashSeamS3');
  add(ses().middlewareStack, counting(SES_WRITES), 'crashSeamSes');
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * The control routes, on the local gateway's port outside the API's stage (only with the seam on):
 * `POST /__crash-seam/arm` `{ target, after, times? }` arms the next `times` invocations of a target;
 * `GET /__crash-seam/invocations?since=n` lists the records after `n`; `POST /__crash-seam/reset`
 * forgets arms and records. True when the request was one of them.
 */
export async function crashSeamControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (!crashSeamEnabled() || !url.pathname.startsWith(`${CRASH_CONTROL_PATH}/`)) return false;
  const what = url.pathname.slice(CRASH_CONTROL_PATH.length + 1);
  const answer = (status: number, value: unknown): true => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value));
    return true;
  };
  if (req.method === 'POST' && what === 'arm') {
    const b = await body(req);
    const after = Number(b.after);
    const times = Number(b.times ?? 1);
    if (typeof b.target !== 'string' || !Number.isInteger(after) || after < 1 || !Number.isInteger(times))
      return answer(400, { errorMessage: 'arm needs { target, after >= 1, times? }' });
    armed.set(b.target, [...(armed.get(b.target) ?? []), ...Array.from({ length: times }, () => after)]);
    return answer(200, { armed: Object.fromEntries(armed) });
  }
  if (req.method === 'GET' && what === 'invocations') {
    const since = Number(url.searchParams.get('since') ?? 0);
    return answer(200, { last: counter, invocations: log.filter((r) => r.n > since) });
  }
  if (req.method === 'POST' && what === 'reset') {
    armed.clear();
    log.length = 0;
    return answer(200, { last: counter });
  }
  return answer(404, { errorMessage: `no crash seam control ${req.method} ${what}` });
}
