import { describe, expect, it } from 'vitest';
import { emailConfirmedOf, holdsAuthority, missingAuthorityMessage, roleStatusOf } from './identity';

describe('identity rules (decision 070)', () => {
  it('reads records older than role requests (no roleStatus, no emailConfirmed) as requested and unconfirmed, except admins', () => {
    expect(roleStatusOf({ userRole: 'TECHNICAL_LEADER' })).toBe('REQUESTED');
    expect(emailConfirmedOf({ userRole: 'TECHNICAL_LEADER' })).toBe(false);
    expect(holdsAuthority({ userRole: 'SW_FW_RELEASE_ENGINEER' })).toBe(false);
    expect(roleStatusOf({ userRole: 'ADMIN' })).toBe('GRANTED');
    expect(holdsAuthority({ userRole: 'ADMIN' })).toBe(true);
  });

  it('needs both a confirmed address and a granted role', () => {
    expect(
      holdsAuthority({ userRole: 'TECHNICAL_LEADER', roleStatus: 'GRANTED', emailConfirmed: true }),
    ).toBe(true);
    expect(
      holdsAuthority({ userRole: 'TECHNICAL_LEADER', roleStatus: 'GRANTED', emailConfirmed: false }),
    ).toBe(false);
    expect(
      holdsAuthority({ userRole: 'TECHNICAL_LEADER', roleStatus: 'REQUESTED', emailConfirmed: true }),
    ).toBe(false);
    expect(
      holdsAuthority({ userRole: 'TECHNICAL_LEADER', roleStatus: 'REFUSED', emailConfirmed: true }),
    ).toBe(false);
    expect(holdsAuthority({ userRole: 'ADMIN', roleStatus: 'REQUESTED', emailConfirmed: true })).toBe(false);
  });

  it('says why, naming the role', () => {
    expect(
      missingAuthorityMessage({
        userRole: 'RELIABILITY_ENGINEER',
        roleStatus: 'REQUESTED',
        emailConfirmed: true,
      }),
    ).toMatch(/^Your role Reliability Engineer waits for an administrator's approval\./);
    expect(
      missingAuthorityMessage({
        userRole: 'RELIABILITY_ENGINEER',
        roleStatus: 'REFUSED',
        emailConfirmed: true,
      }),
    ).toMatch(/^Your role Reliability Engineer was refused by an administrator/);
  });
});
