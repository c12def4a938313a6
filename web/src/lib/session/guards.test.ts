import { describe, expect, it } from 'vitest';
import { safeNextPath } from './guards';

const ORIGIN = 'https://portal.example';

describe('safeNextPath: the page after sign-in, never another site', () => {
  it.each([
    ['/packages/open/pk-1', '/packages/open/pk-1'],
    ['/packages/approve?x=1#top', '/packages/approve?x=1#top'],
    ['/packages/../home', '/home'],
  ])('keeps the same-site path %s', (next, kept) => {
    expect(safeNextPath(next, ORIGIN)).toBe(kept);
  });

  it.each([
    null,
    '',
    'packages',
    '//evil.example/x',
    '/\\evil.example',
    '/\\/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/login',
    '/login?next=/home',
    '/register',
    '/user/reset-password',
  ])('refuses %j', (next) => {
    expect(safeNextPath(next, ORIGIN)).toBeNull();
  });
});
