import { describe, expect, it } from 'vitest';
import { checkCompanyClaims, companyDomainAllowed } from './company-sign-on';

describe('company identity claims', () => {
  const ok = { sub: 's1', email: 'Nina.New@Example.com', email_verified: true, name: 'Nina New' };

  it('accepts a verified address of an allowed domain, lower case, with the name', () => {
    expect(checkCompanyClaims(ok, 'ACME', ['example.com'])).toEqual({
      ok: true,
      email: 'nina.new@example.com',
      name: 'Nina New',
    });
  });

  it('refuses an address the provider did not verify: only exactly true counts', () => {
    for (const email_verified of [false, undefined, 'true', 1])
      expect(checkCompanyClaims({ ...ok, email_verified }, 'ACME', ['example.com'])).toMatchObject({
        ok: false,
        reason: 'NOT_VERIFIED',
      });
  });

  it('refuses a domain outside the list, a look-alike suffix included, and any domain with an empty list', () => {
    expect(checkCompanyClaims({ ...ok, email: 'a@evil-example.com' }, 'ACME', ['example.com'])).toMatchObject(
      { reason: 'DOMAIN' },
    );
    expect(
      checkCompanyClaims({ ...ok, email: 'a@example.com.evil.net' }, 'ACME', ['example.com']),
    ).toMatchObject({ reason: 'DOMAIN' });
    expect(companyDomainAllowed('a@sub.example.com', ['example.com'])).toBe(false);
    expect(companyDomainAllowed('a@example.com', [])).toBe(false);
  });

  it('refuses a missing or malformed address, and keeps control characters out of the name', () => {
    expect(checkCompanyClaims({ ...ok, email: undefined }, 'ACME', ['example.com'])).toMatchObject({
      reason: 'NO_EMAIL',
    });
    expect(checkCompanyClaims({ ...ok, email: 'no-at-sign' }, 'ACME', ['example.com'])).toMatchObject({
      reason: 'NO_EMAIL',
    });
    const r = checkCompanyClaims({ ...ok, name: 'Nina\u202e\nNew' }, 'ACME', ['example.com']);
    expect(r).toMatchObject({ ok: true, name: 'NinaNew' });
    expect(checkCompanyClaims({ ...ok, name: undefined }, 'ACME', ['example.com'])).toMatchObject({
      name: 'nina.new@example.com',
    });
  });
});
