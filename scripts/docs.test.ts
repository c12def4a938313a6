import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS } from '../infra/lib/portal-config';

/**
 * Docs that match the code (decision 314): README.md and docs/*.md (decision records are history and
 * are not read) teach only what works. A `-c key=…` the app refuses, an `npm run x` that package.json
 * does not have, or a Node version other than package.json's `engines` fails here.
 */
const ROOT = join(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};

/** Every match of `re` in the docs, with where it is. */
function found(re: RegExp): { at: string; value: string }[] {
  return DOCS.flatMap((doc) =>
    readFileSync(join(ROOT, doc), 'utf8')
      .split('\n')
      .flatMap((line, i) => [...line.matchAll(re)].map((m) => ({ at: `${doc}:${i + 1}`, value: m[1]! }))),
  );
}

describe('the docs teach only what the code accepts', () => {
  it('names only the context keys the app reads (-c key=…)', () => {
    const flags = found(/(?:^|[\s`(])-c ([A-Za-z][\w-]*)=/g);
    expect(flags.length).toBeGreaterThan(0);
    const refused = flags.filter((f) => !(CONTEXT_KEYS as readonly string[]).includes(f.value));
    expect(refused).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    const runs = found(/npm run ([a-z][\w:-]*)/g);
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.filter((r) => !(r.value in pkg.scripts))).toEqual([]);
    // the deploy flow the docs teach
    for (const script of ['deploy', 'deploy:check', 'ops:redrive'])
      expect(
        runs.map((r) => r.value),
        script,
      ).toContain(script);
  });

  it('asks for one Node version, the one package.json requires', () => {
    const required = /^>=(\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
    expect(required).toBeDefined();
    const asked = found(/Node(?:\.js)? (\d+(?:\.\d+)?)(?:\+| or newer| or later)/g);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((a) => a.value !== required)).toEqual([]);
  });
});
