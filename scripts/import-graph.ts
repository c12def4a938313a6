import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The repository's import graph, as the bundlers see it: static imports and re-exports, and dynamic
 * `import()` (a lazily loaded screen still closes a circle: the chunk it loads imports back). Type-only
 * imports are left out, since the compiler erases them. Only files of the repository are nodes; packages
 * are not followed.
 */
export interface ImportGraph {
  files: string[];
  edges: Map<string, string[]>;
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

function toFile(base: string): string | undefined {
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The graph of the files under `dirs` (absolute), resolving relative imports and the given aliases. */
export function importGraph(root: string, dirs: string[], alias: Record<string, string> = {}): ImportGraph {
  const files = dirs.flatMap((d) => sourceFiles(d)).filter((f) => !/\.(test|spec)\.tsx?$/.test(f));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = (m[1] ?? m[2])!;
      const prefix = Object.keys(alias).find((a) => spec.startsWith(a));
      const base = spec.startsWith('.')
        ? resolve(dirname(file), spec)
        : prefix
          ? resolve(root, alias[prefix]!, spec.slice(prefix.length))
          : undefined;
      const target = base && toFile(base.replace(/\.js$/, ''));
      if (target && known.has(target)) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  return { files: files.map((f) => f), edges };
}

/** The import circles: strongly connected components of more than one file (Tarjan), paths relative to root. */
export function importCycles(root: string, graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1 || (graph.edges.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const f of graph.files) if (!index.has(f)) visit(f);
  return out;
}
