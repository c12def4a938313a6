import { describe, expect, it } from 'vitest';
import { InvocationCounter, passesStageGuard } from './stage-guard';

const REQUIRED = { ORIGIN_VERIFY_REQUIRED: 'true', ORIGIN_VERIFY_SECRET: 'the-origin-secret' };

describe('the local stage guard (the API stage web ACL, decision 308)', () => {
  it('lets every request through when the stack does not require the origin value (npm start)', () => {
    expect(passesStageGuard({}, {})).toBe(true);
    expect(passesStageGuard({}, { ORIGIN_VERIFY_SECRET: 'x' })).toBe(true);
  });

  it('passes only the exact origin value when required, and fails closed without a configured one', () => {
    expect(passesStageGuard({ 'x-frp-origin-verify': 'the-origin-secret' }, REQUIRED)).toBe(true);
    for (const presented of [undefined, '', 'the-origin-secre', 'the-origin-secretx', 'THE-ORIGIN-SECRET'])
      expect(
        passesStageGuard(presented === undefined ? {} : { 'x-frp-origin-verify': presented }, REQUIRED),
        String(presented),
      ).toBe(false);
    expect(passesStageGuard({ 'x-frp-origin-verify': 'anything' }, { ORIGIN_VERIFY_REQUIRED: 'true' })).toBe(
      false,
    );
  });

  it('counts invocations per route', () => {
    const c = new InvocationCounter();
    c.count('login');
    c.count('login');
    c.count('auth');
    expect(c.snapshot()).toEqual({ login: 2, auth: 1 });
    expect(c.total).toBe(3);
  });
});
