import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries Biome refuses (biome.json overrides, decisions 235 and 236), checked two ways:
 * every SPA feature folder has its own override (a new feature cannot slip past the lint), and the source
 * as it stands crosses no boundary (relative and alias imports resolved to files).
 */
const ROOT = resolve(__dirname, '..');
const FEATURES = join(ROOT, 'web/src/features');

interface Override {
  includes: string[];
  linter?: {
    rules?: { style?: { noRestrictedImports?: { options?: { patterns?: { group: string[] }[] } } } };
  };
}
const biome = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as { overrides: Override[] };
const groupsFor = (include: string): string[] =>
  biome.overrides
    .filter((o) => o.includes.includes(include))
    .flatMap((o) => o.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [])
    .flatMap((p) => p.group);

const features = readdirSync(FEATURES).filter((d) => statSync(join(FEATURES, d)).isDirectory());

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every import specifier of a file, resolved to a path under the repository (packages are left out). */
function importedPaths(file: string, alias: Record<string, string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.flatMap((spec) => {
    if (spec.startsWith('.')) return [relative(ROOT, resolve(dirname(file), spec))];
    const prefix = Object.keys(alias).find((a) => spec.startsWith(a));
    return prefix ? [join(alias[prefix]!, spec.slice(prefix.length))] : [];
  });
}

describe('import boundaries', () => {
  it('every SPA feature has a Biome override refusing imports from other features', () => {
    expect(features.length).toBeGreaterThan(0);
    for (const f of features) {
      const groups = groupsFor(`web/src/features/${f}/**`);
      expect(groups, f).toEqual(expect.arrayContaining(['@/features/**', `!@/features/${f}/**`, '../../**']));
    }
  });

  it('no feature imports another feature, and shared SPA code imports none', () => {
    const crossings: string[] = [];
    const alias = { '@/': 'web/src/' };
    for (const file of sourceFiles(join(ROOT, 'web/src'))) {
      const from = relative(ROOT, file);
      const own = /^web\/src\/features\/([^/]+)\//.exec(from)?.[1];
      const shared = /^web\/src\/(components|lib|hooks|utils)\//.test(from);
      for (const to of importedPaths(file, alias)) {
        const target = /^web\/src\/features\/([^/]+)/.exec(to)?.[1];
        if (!target) continue;
        if ((own && target !== own) || shared) crossings.push(`${from} -> ${to}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('adapters import ports and shared/, never services (Biome override and the source)', () => {
    expect(groupsFor('lambdas/adapters/**')).toEqual(expect.arrayContaining(['**/services/**']));
    const crossings = sourceFiles(join(ROOT, 'lambdas/adapters')).flatMap((file) =>
      importedPaths(file, {})
        .filter((to) => to.startsWith('lambdas/services'))
        .map((to) => `${relative(ROOT, file)} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });

  it('SPA configuration imports no app module (Biome override and the source)', () => {
    expect(groupsFor('web/src/config/**')).toEqual(expect.arrayContaining(['@/app/**']));
    const alias = { '@/': 'web/src/' };
    const crossings = sourceFiles(join(ROOT, 'web/src/config')).flatMap((file) =>
      importedPaths(file, alias)
        .filter((to) => to.startsWith('web/src/app'))
        .map((to) => `${relative(ROOT, file)} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });

  it('services import no adapter, middleware or composition outside their tests; workers no adapter', () => {
    expect(groupsFor('lambdas/services/**')).toEqual(
      expect.arrayContaining(['**/adapters/**', '**/middleware/**', '**/composition']),
    );
    expect(groupsFor('lambdas/workers/**')).toEqual(expect.arrayContaining(['**/adapters/**']));
    const crossings = [
      ...sourceFiles(join(ROOT, 'lambdas/services'))
        .filter((file) => !file.endsWith('.test.ts'))
        .flatMap((file) =>
          importedPaths(file, {})
            .filter((to) => /^lambdas\/(adapters|middleware|composition)/.test(to))
            .map((to) => `${relative(ROOT, file)} -> ${to}`),
        ),
      ...sourceFiles(join(ROOT, 'lambdas/workers')).flatMap((file) =>
        importedPaths(file, {})
          .filter((to) => to.startsWith('lambdas/adapters'))
          .map((to) => `${relative(ROOT, file)} -> ${to}`),
      ),
    ];
    expect(crossings).toEqual([]);
  });

  it('the SPA, its mock mode included, imports nothing of the stack (infra/)', () => {
    expect(groupsFor('web/src/**')).toEqual(expect.arrayContaining(['**/infra/**']));
    const alias = { '@/': 'web/src/', '@shared/': 'shared/' };
    const crossings = sourceFiles(join(ROOT, 'web/src')).flatMap((file) =>
      importedPaths(file, alias)
        .filter((to) => to.startsWith('infra/'))
        .map((to) => `${relative(ROOT, file)} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the domain imports no API contract or route table outside its tests (Biome override and the source)', () => {
    expect(groupsFor('shared/domain/**')).toEqual(expect.arrayContaining(['**/api/**']));
    const crossings = sourceFiles(join(ROOT, 'shared/domain'))
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        importedPaths(file, {})
          .filter((to) => to.startsWith('shared/api'))
          .map((to) => `${relative(ROOT, file)} -> ${to}`),
      );
    expect(crossings).toEqual([]);
  });
});
