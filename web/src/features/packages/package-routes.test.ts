import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { createRoutes } from '@/app/router';
import { paths } from '@/config/paths';

function flatten(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((r) => [r, ...flatten(r.children ?? [])]);
}

describe('package routes (spec §2.2)', () => {
  it('gives every package path of the spec a screen of its own', async () => {
    const signedIn = flatten(createRoutes()).find((r) => r.id === 'signed-in');
    const routes = (signedIn?.children ?? []).filter((r) => r.path?.startsWith('packages'));
    const expected = Object.values(paths.packages).map((p) => p.slice(1));
    expect(routes.map((r) => r.path).sort()).toEqual([...expected].sort());
    for (const route of routes) {
      const lazy = route.lazy as (() => Promise<{ Component?: unknown }>) | undefined;
      expect(typeof lazy, route.path).toBe('function');
      const loaded = await lazy?.();
      expect(typeof loaded?.Component, route.path).toBe('function');
    }
  });
});
