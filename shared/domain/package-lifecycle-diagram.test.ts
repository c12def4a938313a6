import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_STATUS, TRANSITIONS, type Transition } from './package-lifecycle';

const WHEN: Record<NonNullable<Transition['when']>, string> = {
  notLastVote: ', not the last vote',
  lastVote: ', last vote',
  lastVoteSigned: ', last vote, signed',
  lastVoteUnsigned: ', last vote, unsigned',
  signed: ', signed',
  unsigned: ', unsigned',
};

/** The lifecycle diagram as docs/architecture.md shows it, generated from the transition table. */
function mermaid(): string {
  const lines = TRANSITIONS.map((t) => {
    const label = `${t.action}${t.when ? WHEN[t.when] : ''}${t.releaseOnly ? ', release only' : ''} (${t.who})`;
    return t.from === '*' || t.to === null
      ? `  %% any status: ${label} removes the package`
      : `  ${t.from} --> ${t.to} : ${label}`;
  });
  return ['```mermaid', 'stateDiagram-v2', `  [*] --> ${INITIAL_STATUS} : create`, ...lines, '```'].join(
    '\n',
  );
}

describe('docs/architecture.md', () => {
  it('shows the lifecycle diagram generated from the transition table', () => {
    const doc = readFileSync(join(__dirname, '../../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Package lifecycle'));
    const start = section.indexOf('```mermaid');
    const block = section.slice(start, section.indexOf('\n```', start) + 4);
    // on a change of the table, paste the generated block (printed in the failure) into the doc
    expect(block).toBe(mermaid());
  });
});
