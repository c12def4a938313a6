import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS, readConfig } from '../infra/lib/portal-config';
import { STAGES } from '../infra/stages';

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

  it('gives every documented -c flag, with its documented value, to the app, which accepts it', () => {
    const flags = found(/(?:^|[\s`(])-c ((?:[A-Za-z][\w-]*)=[^\s`]*)/g);
    expect(flags.length).toBeGreaterThan(0);
    const refusals = flags.flatMap(({ at, value }) => {
      const [key = '', raw = ''] = value.split('=');
      // a placeholder (<stage>) or a stage the docs ask to add first (qa) stands for a committed stage
      const given = key === 'stage' && !(raw in STAGES) ? 'prod' : raw;
      const app = new App({ context: { [key]: given, allowPlaceholderWeb: 'true' } });
      try {
        readConfig(app.node, STAGES);
        return [];
      } catch (e) {
        return [`${at}: -c ${value}: ${(e as Error).message}`];
      }
    });
    expect(refusals).toEqual([]);
  });

  it('names only options the npm script reads (npm run x -- --option)', () => {
    const calls = found(/npm run ([a-z][\w:-]*) -- /g);
    expect(calls.length).toBeGreaterThan(10);
    const unknown: string[] = [];
    for (const { at, value } of calls) {
      const entry = /^tsx (\S+\.ts)$/.exec(pkg.scripts[value] ?? '')?.[1];
      if (!entry) continue;
      const source = readFileSync(join(ROOT, entry), 'utf8');
      const shared = source.includes('TARGET_OPTIONS')
        ? readFileSync(join(ROOT, 'scripts/ops-env.ts'), 'utf8')
        : '';
      const line = readFileSync(join(ROOT, at.split(':')[0]!), 'utf8').split('\n')[
        Number(at.split(':')[1]) - 1
      ]!;
      const rest = line.slice(line.indexOf(`npm run ${value} -- `) + `npm run ${value} -- `.length);
      // after a second `--` the options belong to another program (cdk deploy)
      const own = rest.split(/\s--\s/)[0]!.split('`')[0]!;
      for (const [, option] of own.matchAll(/(?:^|[\s[])--([a-z][\w-]*)/g)) {
        const declared = new RegExp(`(?:'--${option}'|(?:^|[\\s{,])'?${option}'?: \\{ type:)`, 'm');
        if (!declared.test(source) && !declared.test(shared)) unknown.push(`${at}: ${value} --${option}`);
      }
    }
    expect(unknown).toEqual([]);
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
