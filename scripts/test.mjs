#!/usr/bin/env node
// `npm test`: every suite on a fresh machine — vitest projects (unit, integration against a real local
// stack, CDK/cdk-nag, web components), then the Playwright journeys in Debian's Chromium when present.
// Starts with tsc for every project and `biome check` (each counts as one test). Ends with one line
// "N passed, M failed" (CI reads it, both approval-policy passes counted) and a non-zero exit when
// anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = '.test-results';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

let passed = 0;
let failed = 0;
let broken = false;

// What the docs promise, checked first: the compiler over every project (the server's, the SPA's) and
// Biome's lint and format rules. Each counts as one test, and its output says what failed.
for (const [name, cmd, args] of [
  ['tsc (server, shared, infra, tests)', 'npx', ['tsc', '-p', 'tsconfig.json']],
  ['tsc (web)', 'npx', ['tsc', '-p', 'web/tsconfig.json']],
  ['biome check', 'npx', ['biome', 'check', '.']],
]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status === 0) {
    passed += 1;
    console.log(`✓ ${name}`);
  } else {
    failed += 1;
    console.log(`✗ ${name} failed (exit ${r.status})`);
  }
}

/** Runs vitest (`files`: all when empty) under `runEnv` and counts its tests. */
function vitestPass(name, files, runEnv) {
  const before = failed;
  const json = `${out}/${name}.json`;
  const r0 = spawnSync(
    'npx',
    ['vitest', 'run', ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`],
    { stdio: 'inherit', env: runEnv },
  );
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // a file that failed to load counts as a failure even when it reported no test
    failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  } else broken = true;
  if (r0.status !== 0 && failed === before) broken = true;
}

/** Runs the Playwright journeys (`files`: all when empty) under `runEnv` and counts them. */
function playwrightPass(name, files, runEnv) {
  const before = failed;
  const json = `${out}/${name}.json`;
  const pw = spawnSync('npx', ['playwright', 'test', ...files, '--reporter=list,json'], {
    stdio: ['inherit', 'inherit', 'inherit'],
    env: { ...runEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
  });
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected + (r.stats.skipped ?? 0);
  } else broken = true;
  if (pw.status !== 0 && failed === before) broken = true;
}

/**
 * The second policy pass (docs/approval-policy.md, decision 338): suites that vote run again with the API,
 * the stack and the SPA on "the Technical Leader approves last", so a screen or mail that ignores the
 * policy's order fails here. Chosen by what they exercise, to keep the pass short: the rules and services of
 * the votes (unit), the review pages, lists and home inbox (web), and the approve journey in Chromium (e2e).
 * Tests of the policy itself pass their policy explicitly (or start their own stack with it) and hold in both
 * passes. Not yet in it, because they have not been run under this policy: the integration journeys
 * (journey, packages, package-links, mail-outbox, one-commit) and test/e2e/packages.spec.ts.
 */
const SECOND_POLICY = 'technical-leader-last';
const POLICY_PASS = {
  vitest: [
    'shared/domain/approval-policy',
    'lambdas/services/packages/',
    'web/src/features/packages/components/decisions',
    'web/src/features/packages/components/signature-dialog',
    'web/src/features/packages/components/changes-seen',
    'web/src/features/packages/components/package-list-page',
    'web/src/features/home/',
  ],
  playwright: ['test/e2e/approval-turns.spec.ts'],
};
const policyEnv = { ...env, APPROVAL_POLICY: SECOND_POLICY };

vitestPass('vitest', [], env);
vitestPass(`vitest-${SECOND_POLICY}`, POLICY_PASS.vitest, policyEnv);

if (existsSync('playwright.config.ts')) {
  // the journeys run against the production build that `npm start` serves
  const build = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit', env });
  if (build.status !== 0) broken = true;
  playwrightPass('playwright', [], env);
  playwrightPass(`playwright-${SECOND_POLICY}`, POLICY_PASS.playwright, policyEnv);
}

if (broken) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
