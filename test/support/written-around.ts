import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Subjects a test changed straight in a stack's tables, around the product (users made by
 * `directUsers`, a proposal aged by hand): their state has no record by design. The run's check of the
 * record (global-setup.ts) reads this list and tells those disagreements apart from the product's own;
 * every other disagreement fails the run. One JSON line per subject under the stack's data folder.
 */
const FILE = 'written-around.jsonl';

export function noteWrittenAround(dataDir: string, subjects: readonly string[], why: string): void {
  appendFileSync(
    join(dataDir, FILE),
    subjects.map((subject) => `${JSON.stringify({ subject, why })}\n`).join(''),
  );
}

/** subject → why, of everything noted on the stack of `dataDir`. */
export function writtenAround(dataDir: string): Map<string, string> {
  const file = join(dataDir, FILE);
  if (!existsSync(file)) return new Map();
  return new Map(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { subject: string; why: string })
      .map((e) => [e.subject, e.why]),
  );
}
