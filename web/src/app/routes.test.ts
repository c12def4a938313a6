import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { pathsOf, ROUTE_LIST, type RouteRow } from '@/config/routes';
import { SCREENS } from './route-screens';
import { createRoutes } from './router';

describe('route list (spec §2)', () => {
  it('builds the path builders from the row names, nested at the dot, without the catch-all rows', () => {
    const rows: RouteRow[] = [
      { name: 'home', path: '/home', access: 'user' },
      { name: 'packages.list', path: '/packages', access: 'user' },
      { name: 'packages.header', path: '/packages/header', access: 'user' },
      { path: '/*', access: 'user' },
    ];
    expect(pathsOf(rows)).toEqual({
      home: '/home',
      packages: { list: '/packages', header: '/packages/header' },
    });
  });

  it('names each path once', () => {
    const named = ROUTE_LIST.filter((r) => 'name' in r);
    expect(new Set(named.map((r) => r.path)).size).toBe(named.length);
    expect(paths.packages.header).toBe('/packages/header');
    expect(paths.admin.settings).toBe('/admin/settings');
  });

  it('puts every row in the router once, under the layout its access asks for, with its screen', () => {
    const [root] = createRoutes();
    const [publicLayout, adminLayout, signedIn] = root?.children ?? [];
    const under: Record<RouteRow['access'], RouteObject[]> = {
      any: publicLayout?.children ?? [],
      anonymous: publicLayout?.children ?? [],
      admin: adminLayout?.children ?? [],
      user: signedIn?.children ?? [],
    };
    expect(adminLayout?.path).toBe('admin');
    expect(signedIn?.id).toBe('signed-in');
    for (const row of ROUTE_LIST) {
      const found = under[row.access].filter(
        (r) => r.lazy === SCREENS[row.path] && fullPath(row.access, r) === row.path,
      );
      expect(found, row.path).toHaveLength(1);
    }
    const total =
      Object.values(under).reduce((n, c) => n + c.length, 0) - (publicLayout?.children?.length ?? 0);
    expect(total).toBe(ROUTE_LIST.length);
  });
});

function fullPath(access: RouteRow['access'], r: RouteObject): string {
  const base = access === 'admin' ? '/admin' : '';
  if (r.index) return base || '/';
  return `${base}/${r.path}`;
}
