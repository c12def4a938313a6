#!/usr/bin/env node
// `npm test`: every suite on a fresh machine — vitest projects (unit, integration against a real local
// stack, CDK/cdk-nag, web components), then the Playwright journeys in Debian's Chromium when present.
// Starts with tsc for every project and `biome check` (each counts as one test). Ends with one line
// "N passed, M failed" (CI reads it) and a non-zero exit when anything failed.
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

const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest.json`],
  { stdio: 'inherit', env },
);
if (existsSync(`${out}/vitest.json`)) {
  const r = JSON.parse(readFileSync(`${out}/vitest.json`, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // a file that failed to load counts as a failure even when it reported no test
  failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
} else broken = true;
if (vitest.status !== 0 && failed === 0) broken = true;

if (existsSync('playwright.config.ts')) {
  // the journeys run against the production build that `npm start` serves
  const build = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit', env });
  if (build.status !== 0) broken = true;
  const pw = spawnSync('npx', ['playwright', 'test', '--reporter=list,json'], {
    stdio: ['inherit', 'inherit', 'inherit'],
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json` },
  });
  if (existsSync(`${out}/playwright.json`)) {
    const r = JSON.parse(readFileSync(`${out}/playwright.json`, 'utf8'));
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected + (r.stats.skipped ?? 0);
  } else broken = true;
  if (pw.status !== 0 && failed === 0) broken = true;
}

if (broken) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
