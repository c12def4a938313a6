import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { settledAuditVerify } from './audit-verify-run';
import { startStackProcess } from './stack-process';
import { writtenAround } from './written-around';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxUrl: string;
    dynamoEndpoint: string;
    s3Endpoint: string;
    /** the stack's data folder (token-keys.json, emulators.json), for tests that forge tokens */
    dataDir: string;
  }
}

/** Starts one local stack (a real `npm start` process on a throw-away data folder) for the integration run. */
export default async function setup(project: TestProject) {
  const stack = await startStackProcess({
    // tests sign in many times from one address: the per-source limit is raised, the per-account one stays
    LOGIN_MAX_FAILURES_PER_SOURCE: '100000',
    // and registrations from one address; throttle-register.test.ts checks the limit
    REGISTER_MAX_PER_SOURCE: '100000',
  });
  project.provide('baseUrl', stack.url);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('s3Endpoint', stack.s3Endpoint);
  project.provide('dataDir', stack.dataDir);
  return async () => {
    try {
      await checkTheRecord(stack.dataDir);
    } finally {
      // FRP_STACK_LOG=<file> keeps the stack's output (server errors are logged there with request ids)
      if (process.env.FRP_STACK_LOG) writeFileSync(process.env.FRP_STACK_LOG, stack.output.join(''));
      await stack.stop();
    }
  };
}

/**
 * After every file wrote what it wrote: `npm run audit:verify -- --local` on the run's stack (decision
 * 290). Chains, the bucket copy, and state against record; disagreements on subjects a test wrote around
 * the product (written-around.ts) are listed apart. Anything else fails the run (vitest reports a failing
 * teardown without failing the run: the exit code says it).
 */
async function checkTheRecord(dataDir: string): Promise<void> {
  const r = await settledAuditVerify(dataDir);
  const around = writtenAround(dataDir);
  const subjectOf = (line: string) => /^FAIL (\S+?):? /.exec(line)?.[1] ?? '';
  const own = [...r.chainProblems, ...r.disagreements].filter((l) => !around.has(subjectOf(l)));
  const excused = r.disagreements.length + r.chainProblems.length - own.length;
  if (r.code === 2 || own.length > 0) {
    console.error(`\nThe record after the integration run disagrees with the state:\n${r.out}`);
    if (excused > 0) console.error(`(${excused} of them on subjects tests wrote around the product)`);
    process.exitCode = 1;
    return;
  }
  console.log(
    `audit:verify after the run: the record is complete and unbroken${excused ? ` (${excused} disagreement(s) on subjects tests wrote around the product)` : ''}`,
  );
}
