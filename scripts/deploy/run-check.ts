import { readFileSync, writeFileSync } from 'node:fs';
import { checkStage } from '../../infra/lib/portal-config';
import { STAGES } from '../../infra/stages';
import type { RecordedAnswers } from './answers';
import { checkPrerequisites, type Finding } from './prerequisites';

export interface CheckOptions {
  /** replay recorded answers instead of asking AWS */
  answers?: string;
  /** write the answers AWS gave to this file (to replay, or to keep with a deploy record) */
  record?: string;
}

/** One line per finding, blockers first: `BLOCKER  certificate: …`. */
export function formatFindings(findings: readonly Finding[]): string {
  const order = { blocker: 0, warning: 1, ok: 2 } as const;
  return [...findings]
    .sort((a, b) => order[a.level] - order[b.level])
    .map((f) => `${f.level.toUpperCase().padEnd(8)} ${f.check}: ${f.message}`)
    .join('\n');
}

/** The pre-deploy check of one stage of infra/stages.ts: its findings (decision 309). */
export async function runCheck(name: string, opts: CheckOptions = {}): Promise<Finding[]> {
  const raw = (STAGES as Record<string, unknown>)[name];
  if (raw === undefined)
    throw new Error(
      `stage '${name}' is not in infra/stages.ts (stages there: ${Object.keys(STAGES).join(', ')})`,
    );
  const stage = checkStage(name, raw as Record<string, unknown>);
  let answers: RecordedAnswers;
  if (opts.answers) answers = JSON.parse(readFileSync(opts.answers, 'utf8')) as RecordedAnswers;
  else {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    // imported here: a replay needs no SDK client
    const { gatherAnswers } = await import('./gather');
    answers = await gatherAnswers(name, stage);
  }
  if (opts.record) writeFileSync(opts.record, `${JSON.stringify(answers, null, 2)}\n`);
  return checkPrerequisites(name, stage, answers);
}
