import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildCorpus } from './conformance/corpus';

/**
 * `npm run conformance:generate`: writes the conformance corpus to docs/conformance/ (docs/package-format.md
 * §13), removing files of vectors that no longer exist. Run it when the format changes; the tests
 * (scripts/conformance/corpus.test.ts) fail while the committed files differ from what it writes.
 * README.md is written by hand and left alone.
 */

const DIR = resolve(import.meta.dirname, '..', 'docs', 'conformance');
/** Written by hand, kept: the rest of the folder is the generator's. */
export const HAND_WRITTEN = new Set(['README.md']);

/** Every file under `dir`, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(filesUnder(path).map((p) => join(name, p)));
    else out.push(name);
  }
  return out;
}

async function main(): Promise<void> {
  const { files, vectors } = await buildCorpus();
  mkdirSync(DIR, { recursive: true });
  let removed = 0;
  for (const path of filesUnder(DIR))
    if (!HAND_WRITTEN.has(path) && !files.has(path)) {
      rmSync(join(DIR, path));
      removed++;
    }
  let bytes = 0;
  for (const [path, content] of files) {
    mkdirSync(dirname(join(DIR, path)), { recursive: true });
    writeFileSync(join(DIR, path), content);
    bytes += content.length;
  }
  process.stdout.write(
    `${vectors.length} vectors, ${files.size} files (${(bytes / 1024).toFixed(0)} KiB) in ${relative(process.cwd(), DIR)}; ${removed} stale files removed\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
