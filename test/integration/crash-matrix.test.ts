import { writeFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route, tablesWritten } from '../../shared/api/routes';
import { ASYNC_WORKERS, WORKERS } from '../../shared/api/workers';
import { SEED_PASSWORD, SEED_USERS } from '../../shared/domain/seed-users';
import { settledAuditVerify } from '../support/audit-verify-run';
import { cheapenPasswords } from '../support/cheap-signatures';
import { identityCases } from '../support/crash-cases-identity';
import { packageCases } from '../support/crash-cases-packages';
import { resourceCases } from '../support/crash-cases-resources';
import { signOnCases } from '../support/crash-cases-sign-on';
import { workerCases } from '../support/crash-cases-workers';
import { CrashHarness, label } from '../support/crash-harness';
import { StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt } from '../support/store';

/**
 * The crash-point matrix (decision 291): for every writing route of the route table and every worker, and
 * every k from 1 to the number of storage writes its step makes (counted in a clean run), the local
 * stack's crash seam ends the invocation after its k-th write, as a killed Lambda ends. The client then
 * sends the same request again (workers: Lambda's retry, the stream's batch again), and the matrix checks
 * that the state and the record agree and every chain verifies, each mail went out once, and nothing is
 * stuck. Its own stack: crashes before the fix leave disagreements the shared stack's check must not see.
 */
const writes = (r: Route) =>
  r.method !== 'GET' &&
  (tablesWritten(r.uses).length > 0 ||
    Object.values(r.uses.buckets ?? {}).some((ops) => ops.some((o) => o !== 'read' && o !== 'parts')) ||
    Boolean(r.uses.mail) ||
    (r.uses.invoke ?? []).length > 0);

const routeCases = [...packageCases(), ...identityCases(), ...signOnCases(), ...resourceCases()];
const workerCaseList = workerCases();

let stack: StackProcess;
let h: CrashHarness;

beforeAll(async () => {
  stack = await startStackProcess({
    FRP_CRASH_SEAM: '1',
    // fast retries: a crashed run is tried again soon (the behaviour is the same)
    LOCAL_ASYNC_RETRY_MS: '100',
    MAIL_RETRY_BASE_MS: '200',
    LOGIN_MAX_FAILURES_PER_SOURCE: '100000',
    REGISTER_MAX_PER_SOURCE: '100000',
    RESET_MAX_PER_SOURCE: '100000',
    RESET_MAX_PER_ADDRESS: '100',
    // every company sign-on case starts sign-ins from one source, many times over
    COMPANY_SIGN_ON_MAX_STARTS_PER_SOURCE: '100000',
  });
  // signatures at cheap scrypt parameters: hundreds of decisions, each checking a password (same code path)
  await cheapenPasswords(
    dynamoAt(stack.dynamoEndpoint),
    SEED_USERS.map((s) => ({ email: s.email, password: SEED_PASSWORD })),
  );
  const kit = new StackKit(stack.url);
  h = new CrashHarness(stack, kit, await kit.seeded());
}, 900_000);

afterAll(async () => {
  const points = h?.results.filter((r) => r.k > 0) ?? [];
  const problems = h?.results.flatMap((r) => r.problems.map((p) => `${r.target} k=${r.k}: ${p}`)) ?? [];
  const summary = `crash points: ${points.length}, disagreements: ${problems.length}`;
  console.log(`${summary}\n${problems.join('\n')}`);
  if (process.env.FRP_CRASH_REPORT)
    writeFileSync(
      process.env.FRP_CRASH_REPORT,
      JSON.stringify({ summary, results: h?.results ?? [] }, null, 2),
    );
  // FRP_CRASH_STACK_LOG=<file> keeps the crash stack's output (server errors are logged there with request ids)
  if (process.env.FRP_CRASH_STACK_LOG && stack)
    writeFileSync(process.env.FRP_CRASH_STACK_LOG, stack.output.join(''));
  await stack?.stop();
}, 60_000);

describe('the crash-point matrix', () => {
  it('has a case for every writing route of the route table and every worker', () => {
    const covered = new Set(routeCases.map((c) => c.route));
    const missing = ROUTES.filter(writes)
      .map((r) => r.id)
      .filter((id) => !covered.has(id));
    expect(missing, 'writing routes without a crash-matrix case').toEqual([]);
    const workers = new Set(workerCaseList.map((c) => c.worker));
    const ids = [...WORKERS.map((w) => w.id), ...ASYNC_WORKERS.flatMap((w) => [w.id, w.failure.id])];
    expect(
      ids.filter((id) => !workers.has(id)),
      'workers without a crash-matrix case',
    ).toEqual([]);
  });

  for (const c of routeCases)
    it(`${label(c.route, c.variant)}: every crash point converges`, async () => {
      const clean = await h.routePoint(c, 0);
      const found = [...clean.problems.map((p) => `clean run: ${p}`)];
      for (let k = 1; k <= clean.writes; k++)
        found.push(...(await h.routePoint(c, k)).problems.map((p) => `k=${k}/${clean.writes}: ${p}`));
      expect(found).toEqual([]);
    }, 900_000);

  for (const c of workerCaseList)
    it(`${label(`worker:${c.worker}`, c.variant)}: every crash point converges`, async () => {
      const clean = await h.workerPoint(c, 0);
      const found = [...clean.problems.map((p) => `clean run: ${p}`)];
      for (let k = 1; k <= clean.writes; k++)
        found.push(...(await h.workerPoint(c, k)).problems.map((p) => `k=${k}/${clean.writes}: ${p}`));
      expect(found).toEqual([]);
    }, 900_000);

  it('ends with audit:verify passing: chains, the bucket copy, state and record', async () => {
    const r = await settledAuditVerify(stack.dataDir, 60_000);
    const points = h.results.filter((x) => x.k > 0).length;
    const disagreements = h.results.reduce((n, x) => n + x.problems.length, 0);
    console.log(`crash points: ${points}, disagreements: ${disagreements}`);
    expect(r.code, r.out).toBe(0);
    expect(disagreements).toBe(0);
  }, 120_000);
});
