import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CRASH_CONTROL_PATH, CRASH_HEADER, type InvocationRecord } from '../../infra/local/crash-seam';
import { localTable } from '../../infra/local/local-aws';
import { verifyChain } from '../../shared/domain/audit-chain';
import { checkCompleteness, completenessInputOf } from '../../shared/domain/audit-completeness';
import { eventOfItem } from '../../shared/domain/audit-copy';
import { SEED_USERS } from '../../shared/domain/seed-users';
import type { ApiResult, CallOptions } from './api';
import type { KitUsers, StackKit } from './stack-kit';
import type { StackProcess } from './stack-process';
import { dynamoAt, scanAll } from './store';

const root = resolve(import.meta.dirname, '..', '..');

/** One request of a step, as its client sends it (and sends it again after a 5xx). */
export interface StepRequest {
  path: string;
  method: string;
  token?: string;
  body?: unknown;
}

/** What a case prepared for one run: the request, and what the settle check needs to know. */
export interface Prepared extends StepRequest {
  /** anything the case's own checks need (ids, tokens) */
  ctx?: Record<string, unknown>;
}

/**
 * A writing route of the route table under the crash matrix: fresh state per run (`prepare`), the
 * statuses its retry may answer (done, or "already done"), and what "finished" means after the retry.
 */
export interface RouteCase {
  route: string;
  variant?: string;
  prepare(h: CrashHarness): Promise<Prepared>;
  /** statuses the same request may answer when it is sent again after the crash (default: 2xx, 409) */
  retryAnswers?: number[];
  /** after the retry: null when the step finished (or can be finished, and was), else what is stuck */
  settled?(h: CrashHarness, prep: Prepared, retry: ApiResult): Promise<string | null>;
}

/**
 * A worker under the crash matrix: `trigger` starts what invokes it (uncrashed) once the crash point is
 * armed; Lambda's retries (async) or the stream's hand-in again (stream workers) are the retry.
 */
export interface WorkerCase {
  worker: string;
  variant?: string;
  /** crash points armed on other targets for every run (e.g. a worker made to fail all its tries) */
  alsoArm?: { target: string; after: number; times: number }[];
  /** the state the worker's run starts from (uncrashed, before the crash point is armed) */
  prepare(h: CrashHarness): Promise<Prepared>;
  /** what invokes the worker, once it is armed (the call itself is not crashed) */
  trigger(h: CrashHarness, prep: Prepared): Promise<void>;
  settled(h: CrashHarness, prep: Prepared): Promise<string | null>;
  /**
   * The crash point after which a mail may go out twice: the run was killed after the mail service took
   * the mail and before the send was written down. Delivery is at least once there, never lost (decision
   * 367); every other crash point must send each mail once.
   */
  mailMayRepeatAt?: number;
}

/** What one crash point (or the clean run, k = 0) found. */
export interface CrashPointResult {
  target: string;
  k: number;
  problems: string[];
  /** milliseconds: preparing, the crashed call and its retry, the checks */
  ms?: { prepare: number; run: number; check: number };
}

const DEFAULT_RETRY_ANSWERS = [200, 201, 202, 204, 409];

/**
 * Runs crash points against a local stack started with the seam (FRP_CRASH_SEAM=1) and checks, after
 * each: the state and the record agree (shared/domain/audit-completeness.ts) and every chain verifies,
 * each mail went out once, nothing waits forever (the outbox empties; the case's own `settled`).
 * Crash points run one after another, so what a run added to the disagreements is its own.
 */
export class CrashHarness {
  readonly ddb: DynamoDBDocumentClient;
  readonly results: CrashPointResult[] = [];
  private known = new Set<string>();

  constructor(
    readonly stack: StackProcess,
    readonly kit: StackKit,
    readonly u: KitUsers,
  ) {
    this.ddb = dynamoAt(stack.dynamoEndpoint);
  }

  // ── the seam's controls ──────────────────────────────────────────────────────────────────
  private async control<T>(what: string, init?: RequestInit): Promise<T> {
    const r = await fetch(`${this.stack.url}${CRASH_CONTROL_PATH}/${what}`, init);
    if (r.status !== 200) throw new Error(`crash seam ${what}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  async mark(): Promise<number> {
    return (await this.control<{ last: number }>('invocations?since=999999999')).last;
  }

  invocations(since: number): Promise<InvocationRecord[]> {
    return this.control<{ invocations: InvocationRecord[] }>(`invocations?since=${since}`).then(
      (r) => r.invocations,
    );
  }

  arm(target: string, after: number, times = 1): Promise<unknown> {
    return this.control('arm', { method: 'POST', body: JSON.stringify({ target, after, times }) });
  }

  send(req: StepRequest, crashAfter?: number): Promise<ApiResult> {
    const opts: CallOptions = { method: req.method, token: req.token, body: req.body };
    if (crashAfter) opts.headers = { [CRASH_HEADER]: String(crashAfter) };
    return this.kit.call(req.path, opts);
  }

  // ── the mailbox and the outbox ───────────────────────────────────────────────────────────
  async mailbox(): Promise<{ to: string; subject: string; text: string }[]> {
    const store = (await (await fetch(`${this.stack.mailboxUrl.replace(/\/$/, '')}/store`)).json()) as {
      emails: { destination: { to: string[] }; subject: string; body: { text?: string } }[];
    };
    return store.emails.map((e) => ({
      to: e.destination.to.join(','),
      subject: e.subject,
      text: e.body.text ?? '',
    }));
  }

  async clearMailbox(): Promise<void> {
    await fetch(`${this.stack.mailboxUrl.replace(/\/$/, '')}/clear-store`, { method: 'POST' });
  }

  /** Waits until no outbox mail is pending (the worker's lease and backoff included); what still waits. */
  async outboxSettled(timeoutMs = 90_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = (await scanAll(this.ddb, localTable('outbox'))).filter((i) => i.status === 'PENDING');
      if (pending.length === 0 || Date.now() > deadline)
        return pending.map(
          (i) => `outbox mail ${String(i.pk)} to ${String(i.to)} still PENDING (${String(i.attempts)} tries)`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Mails that went out more than once with the same recipient, subject and text. */
  async duplicateMails(): Promise<string[]> {
    const seen = new Map<string, number>();
    for (const m of await this.mailbox()) {
      const key = `${m.to}\n${m.subject}\n${m.text}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return [...seen]
      .filter(([, n]) => n > 1)
      .map(([k, n]) => `mail '${k.split('\n')[1]}' to ${k.split('\n')[0]} sent ${n} times`);
  }

  // ── the record ───────────────────────────────────────────────────────────────────────────
  /** Every disagreement of the state and the record, and every broken chain, as lines. */
  async recordProblems(): Promise<string[]> {
    const [packages, users, resources, dcc, audit] = await Promise.all(
      (['packages', 'users', 'resources', 'dcc', 'audit'] as const).map((t) =>
        scanAll(this.ddb, localTable(t)),
      ),
    );
    const found = checkCompleteness(
      completenessInputOf(
        { packages: packages!, users: users!, resources: resources!, dcc: dcc!, audit: audit! },
        new Date(),
        SEED_USERS.map((s) => ({ email: s.email, role: s.role })),
      ),
    ).map((d) => `${d.subject}: ${d.kind}: ${d.message}`);
    const chains = new Map<
      string,
      { events: ReturnType<typeof eventOfItem>[]; head: { lastSeq: number; lastHash: string } | null }
    >();
    for (const i of audit!) {
      const s = String(i.pk);
      const c = chains.get(s) ?? { events: [], head: null };
      if (Number(i.seq) === 0) c.head = { lastSeq: Number(i.lastSeq), lastHash: String(i.lastHash) };
      else c.events.push(eventOfItem(i));
      chains.set(s, c);
    }
    for (const [s, c] of chains) {
      const broken = verifyChain(
        c.events.sort((a, b) => a.seq - b.seq),
        c.head,
      );
      if (broken !== null) found.push(`${s}: the hash chain is broken at seq ${broken}`);
    }
    return found;
  }

  /** The record's problems that were not there before (and remembers them, so each is counted once). */
  async newRecordProblems(): Promise<string[]> {
    const now = await this.recordProblems();
    const fresh = now.filter((p) => !this.known.has(p));
    this.known = new Set(now);
    return fresh;
  }

  /** `npm run ops:redrive -- --local`: the documented way to hand in what the asynchronous paths gave up. */
  redrive(): Promise<string> {
    return new Promise((done) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts/redrive.ts'), '--local', '--data-dir', this.stack.dataDir],
        { cwd: root, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
        (err, stdout, stderr) => done(`${err ? `exit ${err.code}: ` : ''}${stdout}${stderr}`),
      );
    });
  }

  // ── one crash point ──────────────────────────────────────────────────────────────────────
  /** After a run: what did not settle, what went out twice, what the record lost or gained. */
  private async check(caseProblems: (string | null)[], mayRepeatMail = false): Promise<string[]> {
    const problems = caseProblems.filter((p): p is string => !!p);
    problems.push(...(await this.outboxSettled()));
    if (!mayRepeatMail) problems.push(...(await this.duplicateMails()));
    problems.push(...(await this.newRecordProblems()));
    return problems;
  }

  /**
   * A route at crash point k (0: the clean run): prepare, send with the crash point, send the same
   * request again as the client does after a 5xx, then check. Answers the writes the first call made.
   */
  async routePoint(c: RouteCase, k: number): Promise<{ writes: number; problems: string[] }> {
    const t0 = Date.now();
    const prep = await c.prepare(this);
    await this.outboxSettled();
    await this.newRecordProblems();
    await this.clearMailbox();
    const since = await this.mark();
    const t1 = Date.now();
    const first = await this.send(prep, k || undefined);
    const own = (await this.invocations(since)).find((i) => i.target === `route:${c.route}`);
    const caseProblems: (string | null)[] = [];
    let answer = first;
    if (k > 0) {
      // a run may make fewer calls than the clean one did (a quota window the clean run had to open
      // first: a failed conditional write more); a point it never reached is no crash point of it
      const reached = own === undefined || own.writes >= k;
      if (first.status !== 502 && reached)
        caseProblems.push(
          `the call with crash point ${k} answered ${first.status}, not a crash (it made ${own?.writes ?? '?'} writes)`,
        );
      answer = await this.send(prep);
      const ok = c.retryAnswers ?? DEFAULT_RETRY_ANSWERS;
      if (!ok.includes(answer.status))
        caseProblems.push(`the retry answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    } else if (first.status >= 400) {
      caseProblems.push(`the clean run answered ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
    }
    if (c.settled) caseProblems.push(await c.settled(this, prep, answer));
    const t2 = Date.now();
    const problems = await this.check(caseProblems);
    const ms = { prepare: t1 - t0, run: t2 - t1, check: Date.now() - t2 };
    this.results.push({ target: label(c.route, c.variant), k, problems, ms });
    return { writes: own?.writes ?? 0, problems };
  }

  /** A worker at crash point k (0: the clean run), armed for its next invocation. */
  async workerPoint(c: WorkerCase, k: number): Promise<{ writes: number; problems: string[] }> {
    const t0 = Date.now();
    const prep = await c.prepare(this);
    await this.outboxSettled();
    await this.newRecordProblems();
    await this.clearMailbox();
    const since = await this.mark();
    for (const a of c.alsoArm ?? []) await this.arm(a.target, a.after, a.times);
    if (k > 0) await this.arm(`worker:${c.worker}`, k);
    const t1 = Date.now();
    await c.trigger(this, prep);
    const settled = await c.settled(this, prep);
    const t2 = Date.now();
    const problems = await this.check([settled], k > 0 && k === c.mailMayRepeatAt);
    const ms = { prepare: t1 - t0, run: t2 - t1, check: Date.now() - t2 };
    const runs = (await this.invocations(since)).filter((i) => i.target === `worker:${c.worker}`);
    this.results.push({ target: label(`worker:${c.worker}`, c.variant), k, problems, ms });
    return {
      writes: Math.max(0, ...runs.filter((r) => r.crashAfter === null).map((r) => r.writes)),
      problems,
    };
  }
}

export const label = (target: string, variant?: string) => (variant ? `${target} (${variant})` : target);
