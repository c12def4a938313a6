import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * every switch over a union ends in an exhaustiveness check, `default: return assertNever(x)`
 * (shared/domain/assert-never.ts) or a `never` binding, so a member added to the union is a compile error
 * at every switch that does not handle it. Biome's useExhaustiveSwitchCases cannot see through the
 * zod-inferred unions (adding an `int16` header field type, it reported none of the switches that would
 * have dropped the field), so the source is checked here. A switch over a plain string says why below.
 */
const ROOT = resolve(__dirname, '..');
const DIRS = ['lambdas', 'shared', 'web/src', 'infra/lib', 'infra/local', 'scripts'];
/** switches over a value that is not a union: the `default` handles everything else on purpose */
const NOT_A_UNION: Record<string, string> = {
  'infra/local/s3-multipart-shim.ts': 'context.commandName is any SDK command name (a string)',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each switch's body (between its braces) with the line it starts on. */
function switchBodies(text: string): { line: number; body: string }[] {
  const out: { line: number; body: string }[] = [];
  for (const m of text.matchAll(/\bswitch \(/g)) {
    const open = text.indexOf('{', m.index);
    let depth = 0;
    let end = open;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    out.push({ line: text.slice(0, m.index).split('\n').length, body: text.slice(open + 1, end) });
  }
  return out;
}

/** Whether the body's last clause (at its own depth) is a default that asserts `never`. */
function endsExhaustive(body: string): boolean {
  let depth = 0;
  let lastClause = '';
  let lastAt = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (depth === 0 && /\s/.test(body[i - 1] ?? ' ')) {
      const word = /^(case\s|default\s*:)/.exec(body.slice(i));
      if (word) {
        lastClause = word[1]!.startsWith('case') ? 'case' : 'default';
        lastAt = i;
      }
    }
  }
  return lastClause === 'default' && /assertNever\(|:\s*never\b/.test(body.slice(lastAt));
}

describe('exhaustive switches', () => {
  it('the check itself tells an exhaustive switch from one that is not', () => {
    const [ok, open, catchAll] = switchBodies(`
      switch (f.type) { case 'a': return 1; default: return assertNever(f, 'x'); }
      switch (f.type) { case 'a': { if (x) { y(); } break; } case 'b': break; }
      switch (f.type) { case 'a': return 1; default: return 2; }`);
    expect([ok, open, catchAll].map((s) => endsExhaustive(s!.body))).toEqual([true, false, false]);
  });

  it('every switch in the source ends in default: assertNever(…) (or a never binding)', () => {
    const files = DIRS.flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const open = files.flatMap((file) => {
      const rel = relative(ROOT, file);
      if (NOT_A_UNION[rel]) return [];
      return switchBodies(readFileSync(file, 'utf8'))
        .filter((s) => !endsExhaustive(s.body))
        .map((s) => `${rel}:${s.line}`);
    });
    expect(open).toEqual([]);
  });
});
