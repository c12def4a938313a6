import { ROUTES } from '@shared/api/routes';
import { describe, expect, it } from 'vitest';
import { routePath, routePattern } from './route-path';

describe('routePath: URLs from the route table rows', () => {
  it('fills each path parameter of the row, encoded', () => {
    expect(routePath('attachDcc', { id: 'p 1', dccId: 'd/2' })).toBe('/packages/p%201/dcc/d%2F2');
    expect(routePath('listPackages', { stage: 'dev' })).toBe('/dev/packages');
    expect(routePath('login')).toBe('/user/login');
  });

  it('gives every row its own path, and refuses a missing parameter', () => {
    for (const r of ROUTES) {
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const params = Object.fromEntries(names.map((n) => [n, `x${n}`]));
      expect(routePath(r.id, params)).toBe(r.path.replace(/\{(\w+)\}/g, 'x$1'));
      if (names.length) expect(() => routePath(r.id)).toThrow(`needs its path parameter ${names[0]}`);
    }
  });

  it('gives the same paths as patterns for the mock', () => {
    expect(routePattern('attachDcc')).toBe('/packages/:id/dcc/:dccId');
    expect(routePattern('listDcc')).toBe('/dcc');
  });
});
