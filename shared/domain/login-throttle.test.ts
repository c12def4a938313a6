import { describe, expect, it } from 'vitest';
import { lockRemainingSeconds } from './login-throttle';

const t0 = new Date('2026-01-01T00:00:00Z');
const plus = (s: number) => new Date(t0.getTime() + s * 1000);

describe('login throttle', () => {
  it('allows the first five failures without waiting', () => {
    for (let f = 0; f < 5; f++) expect(lockRemainingSeconds(f, t0, t0)).toBe(0);
  });
  it('locks for 30 s after the fifth failure and doubles per further failure', () => {
    expect(lockRemainingSeconds(5, t0, plus(1))).toBe(29);
    expect(lockRemainingSeconds(6, t0, plus(1))).toBe(59);
    expect(lockRemainingSeconds(7, t0, plus(0))).toBe(120);
  });
  it('caps the lockout at 15 minutes', () => {
    expect(lockRemainingSeconds(40, t0, t0)).toBe(900);
  });
  it('lets the owner in once the lockout has passed', () => {
    expect(lockRemainingSeconds(5, t0, plus(30))).toBe(0);
    expect(lockRemainingSeconds(40, t0, plus(900))).toBe(0);
  });
});
