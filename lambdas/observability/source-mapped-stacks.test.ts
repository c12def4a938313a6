import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const MAPPER = resolve(import.meta.dirname, 'source-mapped-stacks.ts');

/**
 * A bundle built as the stack builds a Lambda's (esm, minified, a source map without sources beside it),
 * run in a fresh node as Lambda runs it (no NODE_OPTIONS): the stack it prints must name the source.
 */
describe('stacks of a bundled Lambda', () => {
  let dir: string;
  let bundle: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'frp-stacks-'));
    const entry = join(dir, 'handler-source.ts');
    writeFileSync(
      entry,
      [
        `import { mapStacksFromSourceMaps } from ${JSON.stringify(MAPPER)};`,
        'mapStacksFromSourceMaps();',
        'export function refuseTheCall(reason: string): never {',
        '  throw new Error("refused: " + reason);',
        '}',
        'try { refuseTheCall("no key"); } catch (e) { console.log((e as Error).stack); }',
        '',
      ].join('\n'),
    );
    bundle = join(dir, 'index.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      outfile: bundle,
      logLevel: 'silent',
    });
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const stackOf = async (env: Record<string, string>) =>
    (await run(process.execPath, [bundle], { env: { PATH: process.env.PATH ?? '', ...env } })).stdout;

  it('names the source file, line and function of the throw, read from the map beside the bundle', async () => {
    const stack = await stackOf({});
    const lines = stack.trim().split('\n');
    expect(lines[0]).toBe('Error: refused: no key');
    // line 4 of the source, in the function as the source names it (the bundle's name is minified)
    expect(lines[1]).toMatch(/^ {4}at refuseTheCall \(.*handler-source\.ts:4:\d+\)$/);
    expect(stack).not.toContain('index.mjs:');
  });

  it('leaves the stack to Node where Node maps it itself (--enable-source-maps)', async () => {
    const stack = await stackOf({ NODE_OPTIONS: '--enable-source-maps' });
    expect(stack.split('\n')[1]).toMatch(/handler-source\.ts:4:\d+\)$/);
  });

  it('writes the bundle’s own frames when there is no map beside it', async () => {
    rmSync(`${bundle}.map`);
    const stack = await stackOf({});
    expect(stack.split('\n')[0]).toBe('Error: refused: no key');
    expect(stack.split('\n')[1]).toMatch(/index\.mjs:\d+:\d+\)?$/);
  });
});
