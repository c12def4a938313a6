import { describe, expect, it } from 'vitest';
import { buildRouter } from './route-matcher';
import { ROUTES } from './routes';

const sample = (path: string) => path.replace(/\{(\w+)\}/g, (_, n) => `sample-${n}`);

describe('local router (API Gateway matching)', () => {
  const match = buildRouter();

  it('reaches every row of the route table by its own path', () => {
    for (const r of ROUTES) {
      const m = match(r.method, sample(r.path));
      expect('route' in m && m.route.id, `${r.method} ${r.path}`).toBe(r.id);
    }
  });

  it('prefers a literal segment over a parameter, as API Gateway does', () => {
    const m = match('GET', '/delivery/packages');
    expect('route' in m && m.route.id).toBe('listDeliveryPackages');
    const d = match('GET', '/dev/packages');
    expect('route' in d && d.params).toEqual({ stage: 'dev' });
  });

  it('answers 404 for an unknown path and 405 for a known path with another method', () => {
    expect(match('GET', '/nothing/here/at/all')).toEqual({ error: 404 });
    expect(match('PUT', '/user/login')).toEqual({ error: 405 });
  });

  it('refuses two parameter names at one level, which API Gateway cannot deploy', () => {
    expect(() =>
      buildRouter([
        { id: 'a', method: 'GET', path: '/x/{a}', access: 'public', uses: { tables: [] }, summary: '' },
        { id: 'b', method: 'POST', path: '/x/{b}/y', access: 'public', uses: { tables: [] }, summary: '' },
      ]),
    ).toThrow(/one parameter name per level/);
  });
});
