import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Production code, its styles and the lint rules' messages never point at the issue tracker ("issue 23"):
 * the tracker is not in the repository, so such a pointer tells a newcomer nothing. A comment says the
 * reason, or names the decision record it follows (docs/decisions/README.md). Tests are left out: a test
 * may say which report it reproduces (their names say the behaviour all the same).
 */
const ROOT = resolve(__dirname, '..');
const FOLDERS = ['lambdas', 'shared', 'web/src', 'infra', 'scripts'];
const SKIPPED = new Set(['node_modules', 'cdk.out', 'dist', 'test']);
const ISSUE = /\bissues? [0-9]/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : sourceFiles(path);
    return /\.(tsx?|css)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('production code names no issue numbers', () => {
  // the lint rules' messages are read by whoever breaks a rule: they name the decision too
  const files = [...FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f))), join(ROOT, 'biome.json')];

  it('reads the production sources of every folder', () => {
    for (const folder of FOLDERS)
      expect(
        files.some((f) => relative(ROOT, f).startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
  });

  it('no line of lambdas, shared, web/src, infra, scripts or biome.json says "issue N"', () => {
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
