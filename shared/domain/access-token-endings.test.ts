import { describe, expect, it } from 'vitest';
import {
  type TokenOwnerFields,
  tokenEndedBy,
  tokenEndedText,
  tokenEndingCause,
  withTokenEnding,
} from './access-token-endings';

const owner: TokenOwnerFields = {
  userRole: 'DESIGN_ENGINEER_DEV',
  roleStatus: 'GRANTED',
  emailConfirmed: true,
  passwordHash: 'old',
};
const token = { userRole: 'DESIGN_ENGINEER_DEV' as const, ownerEpoch: 0 };
const T1 = '2026-11-27T10:00:00.000Z';
const T2 = '2026-11-28T10:00:00.000Z';

describe('what ends access tokens (decision 334)', () => {
  it('a role change, a refusal or revocation, a reset taking effect, a password change', () => {
    expect(tokenEndingCause(owner, { ...owner, userRole: 'DESIGN_ENGINEER_TEST' })).toBe('ROLE_CHANGED');
    expect(tokenEndingCause(owner, { ...owner, roleStatus: 'REFUSED' })).toBe('ROLE_REFUSED');
    expect(tokenEndingCause(owner, { ...owner, roleStatus: 'REQUESTED' })).toBe('ROLE_CHANGED');
    const asked = { ...owner, tempPasswordHash: 'temp' };
    expect(tokenEndingCause(asked, { ...owner, passwordHash: 'temp', mustChangePassword: true })).toBe(
      'PASSWORD_RESET',
    );
    expect(tokenEndingCause(owner, { ...owner, passwordHash: 'new' })).toBe('PASSWORD_CHANGED');
  });

  it('not a grant, a reset only asked for, a name change', () => {
    expect(tokenEndingCause({ ...owner, roleStatus: 'REFUSED' }, owner)).toBeNull();
    expect(
      tokenEndingCause({ ...owner, roleStatus: 'REQUESTED' }, { ...owner, roleStatus: 'REFUSED' }),
    ).toBeNull();
    expect(tokenEndingCause(owner, { ...owner, tempPasswordHash: 'temp' })).toBeNull();
    expect(withTokenEnding(owner, { ...owner }, T1)).toEqual(owner);
  });

  it('an ended token stays ended whatever comes after, and says when and why', () => {
    const refused = withTokenEnding(owner, { ...owner, roleStatus: 'REFUSED' }, T1);
    const regranted = { ...refused, roleStatus: 'GRANTED' as const };
    expect(withTokenEnding(refused, regranted, T2)).toBe(regranted);
    expect(tokenEndedBy(token, regranted)).toEqual({ cause: 'ROLE_REFUSED', at: T1 });
    expect(tokenEndedBy({ ...token, ownerEpoch: 1 }, regranted)).toBeNull();
    const reset = withTokenEnding<TokenOwnerFields>(
      { ...regranted, tempPasswordHash: 't' },
      { ...regranted, passwordHash: 't', mustChangePassword: true },
      T2,
    );
    const changed = withTokenEnding(
      reset,
      { ...reset, passwordHash: 'n', mustChangePassword: undefined },
      T2,
    );
    expect(changed.tokenEpoch).toBe(3);
    expect(tokenEndedBy({ ...token, ownerEpoch: 1 }, changed)).toEqual({ cause: 'PASSWORD_RESET', at: T2 });
    expect(tokenEndedText({ cause: 'PASSWORD_RESET', at: T2 })).toBe(
      "the owner's password was reset on 2026-11-28 10:00 UTC",
    );
  });

  it('keeps the endings of the last 90 days only, at most 20, and names an older one without its moment', () => {
    let u = owner;
    for (let i = 0; i < 25; i++)
      u = withTokenEnding(
        u,
        { ...u, passwordHash: `p${i}` },
        new Date(Date.parse(T1) + i * 1000).toISOString(),
      );
    expect(u.tokenEndings).toHaveLength(20);
    expect(u.tokenEndings?.[0]?.epoch).toBe(6);
    expect(tokenEndedBy(token, u)).toEqual({ cause: 'EARLIER_CHANGE' });
    const late = withTokenEnding(u, { ...u, passwordHash: 'late' }, '2027-03-30T00:00:00.000Z');
    expect(late.tokenEndings?.map((e) => e.epoch)).toEqual([26]);
  });

  it('refuses while a condition older than the epochs lasts, and names a deleted owner', () => {
    expect(tokenEndedBy(token, null)).toEqual({ cause: 'OWNER_DELETED' });
    expect(tokenEndedBy(token, { ...owner, userRole: 'TECHNICAL_LEADER' })).toEqual({
      cause: 'ROLE_CHANGED',
    });
    expect(tokenEndedBy(token, { ...owner, roleStatus: 'REFUSED' })).toEqual({ cause: 'ROLE_REFUSED' });
    expect(tokenEndedBy(token, { ...owner, emailConfirmed: false })).toEqual({ cause: 'AUTHORITY_LOST' });
    expect(tokenEndedBy(token, { ...owner, mustChangePassword: true })).toEqual({ cause: 'PASSWORD_RESET' });
    expect(tokenEndedBy(token, owner)).toBeNull();
  });
});
