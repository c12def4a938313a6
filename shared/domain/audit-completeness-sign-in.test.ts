import { describe, expect, it } from 'vitest';
import {
  type CompanyLinkState,
  type CompletenessInput,
  completenessInputOf,
  type PasskeyState,
  type UserState,
} from './audit-completeness';
import { chainedEvent, checkUsers } from './audit-completeness.fixtures';
import type { ChainedEvent } from './audit-event';
import { removalExpiresAt } from './passkeys';

/** Passkeys and company identities: the state's items and fields against the events that made them. */

let seq = 0;
const ev = (action: string, details: Record<string, unknown> = {}, actorId = 'dana'): ChainedEvent =>
  chainedEvent(
    'USER#dana',
    ++seq,
    action,
    actorId,
    details,
    action === 'USER_REGISTERED' ? 'registers as DESIGN_ENGINEER_DEV' : action.toLowerCase(),
  );

const dana: UserState = {
  id: 'dana',
  email: 'dana@example.com',
  userRole: 'DESIGN_ENGINEER_DEV',
  roleStatus: 'REQUESTED',
  emailConfirmed: true,
};
const registered = () => [ev('USER_REGISTERED'), ev('EMAIL_CONFIRMED')];

const check = (users: UserState[], events: ChainedEvent[], more: Partial<CompletenessInput> = {}) =>
  checkUsers(users, events, more).map((d) => `${d.kind}: ${d.message}`);

const key: PasskeyState = { id: 'k1', userId: 'dana', name: 'Laptop' };
const added = () => ev('PASSKEY_ADDED', { passkeyId: 'k1', passkeyName: 'Laptop' });
const removed = () => ev('PASSKEY_REMOVED', { passkeyId: 'k1' });

describe('passkey completeness', () => {
  it('finds nothing when a held passkey was added once, and a removed one removed once', () => {
    const holds = { ...dana, passkeyIds: ['k1'] };
    expect(check([holds], [...registered(), added()], { passkeys: [key] })).toEqual([]);
    expect(check([dana], [...registered(), added(), removed()])).toEqual([]);
  });

  it('names a held passkey whose PASSKEY_ADDED is missing, and a removal that was not recorded', () => {
    const holds = { ...dana, passkeyIds: ['k1'] };
    expect(check([holds], registered(), { passkeys: [key] })).toEqual([
      "missing: the account holds the passkey k1 ('Laptop'), but the record has no PASSKEY_ADDED event",
    ]);
    expect(check([dana], [...registered(), added()])).toEqual([
      'missing: the record added the passkey k1, which the account no longer holds, but the record has no PASSKEY_REMOVED event',
    ]);
    // a removal recorded while the account still holds the passkey
    expect(check([holds], [...registered(), added(), removed()], { passkeys: [key] })).toEqual([
      "extra: the record has 1 PASSKEY_REMOVED event(s), but the account holds the passkey k1 ('Laptop')",
    ]);
  });

  it('finds a passkey id without its item, and an item its account does not list', () => {
    const holds = { ...dana, passkeyIds: ['k1'] };
    expect(check([holds], [...registered(), added()])).toEqual([
      'mismatch: the account holds the passkey k1, but no passkey item k1 of this account is stored',
    ]);
    expect(check([dana], registered(), { passkeys: [key] })).toEqual([
      "mismatch: the passkey item k1 ('Laptop') names the account dana@example.com, which does not hold it",
    ]);
  });

  it('a removal waiting for a second admin needs its PASSKEY_REMOVAL_PROPOSED by the proposer', () => {
    const at = '2026-01-02T00:00:00.000Z';
    const holds = { ...dana, passkeyIds: ['k1'] };
    const proposed = { ...key, removalProposal: { proposedById: 'ada', proposedAt: at } };
    const proposal = () =>
      ev('PASSKEY_REMOVAL_PROPOSED', { passkeyId: 'k1', expiresAt: removalExpiresAt(at) }, 'ada');
    expect(check([holds], [...registered(), added(), proposal()], { passkeys: [proposed] })).toEqual([]);
    expect(check([holds], [...registered(), added()], { passkeys: [proposed] })).toEqual([
      'missing: ada proposed removing the passkey k1 at 2026-01-02T00:00:00.000Z, but the record has no PASSKEY_REMOVAL_PROPOSED event',
    ]);
    expect(check([holds], [...registered(), added(), proposal()], { passkeys: [key] })[0]).toMatch(
      /^extra: the record proposes removing the passkey k1 .*carries no proposal/,
    );
  });
});

const idp = { issuer: 'https://idp.example.com', subject: 'emp-1' };
const link: CompanyLinkState = { ...idp, userId: 'dana' };

describe('company identity completeness', () => {
  it('an account made by a first company sign-in: created, confirmed and linked by one event', () => {
    const made: UserState = { ...dana, roleStatus: 'NONE', companyIdentity: idp };
    const created = () => ev('COMPANY_ACCOUNT_CREATED', { method: 'company', ...idp });
    expect(check([made], [created()], { companyLinks: [link] })).toEqual([]);
    expect(check([made], [], { companyLinks: [link] })).toEqual([
      'missing: the account dana@example.com exists, but the record has no USER_REGISTERED or ADMIN_CREATED or COMPANY_ACCOUNT_CREATED event',
      'missing: the account dana@example.com is confirmed, but the record has no EMAIL_CONFIRMED event',
      'missing: the account is linked to the company identity https://idp.example.com / emp-1, but the record has no COMPANY_IDENTITY_LINKED (or COMPANY_LINK_CONFIRMED, COMPANY_ACCOUNT_CREATED) event',
    ]);
    // no role decided since: a grant without its origin's request is still named
    expect(
      check([made], [created(), ev('ROLE_GRANTED', { proposedBy: 'ada' }, 'abe')], {
        companyLinks: [link],
      }),
    ).toEqual([
      'extra: the record has 1 ROLE_GRANTED event(s), but the role DESIGN_ENGINEER_DEV waits for a decision (NONE)',
    ]);
  });

  it('a linked identity needs its link event since the last unlink, and its link item', () => {
    const linked = { ...dana, companyIdentity: idp };
    const byPassword = () => ev('COMPANY_IDENTITY_LINKED', { method: 'company', ...idp });
    const unlinked = () => ev('COMPANY_IDENTITY_UNLINKED', idp, 'ada');
    expect(check([linked], [...registered(), byPassword()], { companyLinks: [link] })).toEqual([]);
    expect(check([linked], [...registered(), byPassword()])[0]).toMatch(/its link item is not stored$/);
    expect(check([linked], [...registered(), byPassword(), unlinked()], { companyLinks: [link] })[0]).toMatch(
      /^missing: the account is linked to the company identity .* no COMPANY_IDENTITY_LINKED/,
    );
    expect(check([dana], [...registered(), byPassword(), unlinked()])).toEqual([]);
    expect(check([dana], [...registered(), byPassword()])).toEqual([
      `extra: the record links the company identity ${idp.issuer} / ${idp.subject} (COMPANY_IDENTITY_LINKED, seq ${seq}) with no unlink since, but the account holds none`,
    ]);
    expect(check([dana], registered(), { companyLinks: [link] })).toEqual([
      `mismatch: the link item of the company identity ${idp.issuer} / ${idp.subject} names the account dana@example.com, which holds none`,
    ]);
  });

  it('a link request needs COMPANY_LINK_REQUESTED since the last decision, and its proposal the proposer’s event', () => {
    const requested = () => ev('COMPANY_LINK_REQUESTED', idp);
    const proposed = () => ev('COMPANY_LINK_PROPOSED', idp, 'ada');
    const asks = { ...dana, companyLinkRequest: idp };
    const waits = { ...dana, companyLinkRequest: { ...idp, proposal: { byId: 'ada' } } };
    expect(check([asks], [...registered(), requested()])).toEqual([]);
    expect(check([waits], [...registered(), requested(), proposed()])).toEqual([]);
    expect(check([asks], registered())[0]).toMatch(
      /^missing: the account asks to link .* no COMPANY_LINK_REQUESTED/,
    );
    expect(check([waits], [...registered(), requested()])).toEqual([
      `missing: ada proposed linking the company identity ${idp.issuer} / ${idp.subject}, but the record has no COMPANY_LINK_PROPOSED event`,
    ]);
    expect(check([asks], [...registered(), requested(), proposed()])[0]).toMatch(
      /^extra: .*COMPANY_LINK_PROPOSED/,
    );
    expect(check([dana], [...registered(), requested()])[0]).toMatch(/^extra: .*waits for a decision/);
    expect(check([dana], [...registered(), requested(), ev('COMPANY_LINK_REFUSED', idp, 'ada')])).toEqual([]);
  });

  it("reads passkey and link items from the users table's items", () => {
    const read = completenessInputOf(
      {
        packages: [],
        users: [
          { pk: 'PASSKEY#k1', kind: 'PASSKEY', id: 'k1', userId: 'dana', name: 'Laptop' },
          { pk: `IDP#${idp.issuer}#${idp.subject}`, kind: 'IDP_LINK', ...idp, userId: 'dana' },
          { pk: 'CEREMONY#x', kind: 'CEREMONY' },
          { pk: 'LINKOFFER#y', kind: 'LINK_OFFER' },
        ],
        resources: [],
        dcc: [],
        audit: [],
      },
      new Date(),
    );
    expect(read.passkeys?.map((p) => p.id)).toEqual(['k1']);
    expect(read.companyLinks?.map((l) => l.userId)).toEqual(['dana']);
  });
});
