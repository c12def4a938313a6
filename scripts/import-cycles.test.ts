import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph';

/**
 * No import circles, in the SPA or the backend: a circle makes module order decide which value is still
 * undefined at load, and pulls every file of it into every chunk that needs one. Dynamic imports count
 * (a lazily loaded screen that imports back closes one); type-only imports do not (they are erased).
 */
const ROOT = resolve(__dirname, '..');

describe('import circles', () => {
  it('the SPA (web/src) has none', () => {
    const graph = importGraph(ROOT, [join(ROOT, 'web/src')], { '@/': 'web/src/', '@shared/': 'shared/' });
    expect(graph.files.length).toBeGreaterThan(100);
    expect(importCycles(ROOT, graph)).toEqual([]);
  });

  it('the backend, the stack and the scripts have none', () => {
    const dirs = ['shared', 'lambdas', 'infra', 'scripts', 'test'].map((d) => join(ROOT, d));
    const graph = importGraph(ROOT, dirs);
    expect(graph.files.length).toBeGreaterThan(300);
    expect(importCycles(ROOT, graph)).toEqual([]);
  });

  it('finds a circle through an alias, a re-export and a dynamic import, and ignores a type-only import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    mkdirSync(join(dir, 'src/config'), { recursive: true });
    writeFileSync(
      join(dir, 'src/config/paths.ts'),
      "import { ROWS } from '@/app/rows';\nexport const p = ROWS;\n",
    );
    mkdirSync(join(dir, 'src/app'), { recursive: true });
    writeFileSync(join(dir, 'src/app/rows.ts'), "export const ROWS = [() => import('../screen')];\n");
    writeFileSync(join(dir, 'src/screen.tsx'), "export { p } from './config/paths';\n");
    writeFileSync(join(dir, 'src/typed.ts'), "import type { p } from './lone';\nexport type T = typeof p;\n");
    writeFileSync(
      join(dir, 'src/lone.ts'),
      "import type { T } from './typed';\nexport const p: T | 1 = 1;\n",
    );
    const cycles = importCycles(dir, importGraph(dir, [join(dir, 'src')], { '@/': 'src/' }));
    expect(cycles).toEqual([['src/app/rows.ts', 'src/config/paths.ts', 'src/screen.tsx']]);
  });
});
