import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACCOUNT_POLICY,
  DEFAULT_ACCOUNT_WIDE_POLICY,
  lockRemainingSeconds,
  minutesToWait,
} from './login-throttle';

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

describe('account-wide slow-down', () => {
  it('waits for nobody until 20 distinct sources have failed, then 30 s doubling per new source', () => {
    for (let n = 0; n < 20; n++) expect(lockRemainingSeconds(n, t0, t0, DEFAULT_ACCOUNT_WIDE_POLICY)).toBe(0);
    expect(lockRemainingSeconds(20, t0, t0, DEFAULT_ACCOUNT_WIDE_POLICY)).toBe(30);
    expect(lockRemainingSeconds(21, t0, t0, DEFAULT_ACCOUNT_WIDE_POLICY)).toBe(60);
    expect(lockRemainingSeconds(60, t0, t0, DEFAULT_ACCOUNT_WIDE_POLICY)).toBe(900);
  });
  it('needs far more sources than one pair needs failures', () => {
    expect(DEFAULT_ACCOUNT_WIDE_POLICY.freeFailures).toBeGreaterThan(DEFAULT_ACCOUNT_POLICY.freeFailures);
  });
});

describe('minutesToWait', () => {
  it('rounds a countdown up to whole minutes, at least one', () => {
    expect(minutesToWait(1)).toBe(1);
    expect(minutesToWait(60)).toBe(1);
    expect(minutesToWait(61)).toBe(2);
    expect(minutesToWait(900)).toBe(15);
    expect(minutesToWait(0)).toBe(1);
  });
});
