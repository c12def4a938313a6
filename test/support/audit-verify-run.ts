import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

export interface AuditVerifyResult {
  code: number;
  out: string;
  /** the `FAIL <subject>: <kind>: <message>` lines of the state-and-record part */
  disagreements: string[];
  /** the `FAIL <subject> seq <n>: …` lines of the chain-and-copy part */
  chainProblems: string[];
}

/**
 * Runs `npm run audit:verify -- --local --data-dir <dir>` (the script itself, as an operator runs it) on a
 * local stack's data folder: chains, the bucket copy, and whether the state and the record agree.
 */
export function runAuditVerifyLocal(dataDir: string, ...more: string[]): Promise<AuditVerifyResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'scripts/audit-verify.ts'), '--local', '--data-dir', dataDir, ...more],
      {
        cwd: root,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const out = `${stdout}${stderr}`;
        const fails = out.split('\n').filter((l) => l.startsWith('FAIL '));
        done({
          code: err ? Number(err.code ?? 1) : 0,
          out,
          disagreements: fails.filter((l) => /^FAIL \S+: (missing|extra|duplicate|mismatch): /.test(l)),
          chainProblems: fails.filter((l) => !/^FAIL \S+: (missing|extra|duplicate|mismatch): /.test(l)),
        });
      },
    );
  });
}

/**
 * audit:verify until the bucket copy has caught up (the copy follows the audit table's stream): the
 * chain-and-copy part may lag a moment behind a write, the state-and-record part never does.
 */
export async function settledAuditVerify(dataDir: string, timeoutMs = 30_000): Promise<AuditVerifyResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await runAuditVerifyLocal(dataDir);
    const lagging =
      r.chainProblems.length > 0 && r.chainProblems.every((l) => /missing in the bucket/.test(l));
    if (!lagging || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
}
