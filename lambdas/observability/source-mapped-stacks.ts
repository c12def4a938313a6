import { readFileSync } from 'node:fs';
import { SourceMap, type SourceOrigin } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces in the source's file:line, read from the bundle's source map only when a stack is formatted
 * (docs/decisions/349-source-maps-read-when-a-stack-is-formatted.md). `--enable-source-maps` parsed the
 * 1–2 MB map at every cold start, ~15 % of a function's init, for the few invocations that log an error.
 * Node maps only files loaded after it was enabled, so it cannot be switched on at the first error: the
 * frames are mapped here, by node:module's SourceMap, from `<bundle>.map` beside the bundle (esbuild's).
 */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null; // no map beside this file (a package file, or not a bundle): its frames stay as they are
    }
    maps.set(file, map);
  }
  return map;
}

/** Where a frame's position was in the source, when its file has a map beside it. */
function originOf(site: NodeJS.CallSite | undefined): SourceOrigin | undefined {
  const url = site?.getFileName();
  const line = site?.getLineNumber();
  const column = site?.getColumnNumber();
  const file = url?.startsWith('file://') ? fileURLToPath(url) : url;
  const origin = file && line && column ? mapOf(file)?.findOrigin(line, column) : undefined;
  // an empty object when the position has no mapping
  return origin && 'fileName' in origin ? (origin as SourceOrigin) : undefined;
}

/**
 * One frame as V8 writes it, in the original file and line. The function's source name is the one the
 * map gives the call in the frame below (the caller), as Node's own mapping names it; else the bundle's.
 */
function frame(site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string {
  const origin = originOf(site);
  if (!origin) return `    at ${site}`;
  // sources are written relative to the map (../../lambdas/x.ts): the repository path is what a reader wants
  const where = `${origin.fileName.replace(/^(\.\.\/)+/, '')}:${origin.lineNumber}:${origin.columnNumber}`;
  const name = originOf(caller)?.name ?? site.getFunctionName();
  return `    at ${name ? `${name} (${where})` : where}`;
}

/**
 * Maps the stacks of this process from the bundles' source maps, in a Lambda started without
 * `--enable-source-maps` (where Node maps them itself, nothing is changed).
 */
export function mapStacksFromSourceMaps(): void {
  if (process.sourceMapsEnabled) return;
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) =>
    [Error.prototype.toString.call(error), ...sites.map((site, i) => frame(site, sites[i + 1]))].join('\n');
}
