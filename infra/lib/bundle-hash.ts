import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './portal-config';

/** Everything a Lambda bundle is built from: handler code, shared code, dependencies, compiler settings. */
const SOURCE_DIRS = ['lambdas', 'shared'];
const ROOT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json'];
const IS_TEST = /\.(test|spec)\.tsx?$/;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile() && !IS_TEST.test(entry.name)) out.push(path);
  }
  return out;
}

let inputs: string | undefined;

/**
 * Hash of every input a handler bundle can depend on (handlers import only lambdas/, shared/ and npm
 * packages). Used as the asset hash, so an unchanged bundle is not rebuilt on the next synth: the
 * 43 esbuild runs otherwise cost over a minute each time (docs/decisions/014-bundle-cache.md).
 */
export function bundleInputsHash(): string {
  if (inputs !== undefined) return inputs;
  const hash = createHash('sha256');
  const esbuild = createRequire(import.meta.url)('esbuild/package.json') as { version: string };
  hash.update(`esbuild@${esbuild.version}\0`);
  const files = [
    ...SOURCE_DIRS.flatMap((d) => filesUnder(join(REPO_ROOT, d))),
    ...ROOT_FILES.map((f) => join(REPO_ROOT, f)),
  ].sort();
  for (const file of files) {
    hash.update(`${relative(REPO_ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  inputs = hash.digest('hex');
  return inputs;
}

/** Asset hash of one function: the shared inputs plus what differs per function (entry, options). */
export function bundleAssetHash(entry: string, options: unknown): string {
  return (
    createHash('sha256')
      .update(bundleInputsHash())
      .update(relative(REPO_ROOT, entry))
      // machine-independent: absolute paths in the options (the credentials alias) count from the repo
      .update(JSON.stringify(options).replaceAll(REPO_ROOT, '<repo>'))
      .digest('hex')
  );
}
