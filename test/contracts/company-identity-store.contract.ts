import { describe, expect, it } from 'vitest';
import type {
  CompanyIdentityStore,
  CompanyLink,
  LinkOffer,
  ReauthTicket,
  SignOnTransaction,
} from '../../lambdas/ports/company-identity-store';
import type { UserRepository } from '../../lambdas/ports/user-repository';
import { fresh } from './fresh-ids';
import { user } from './user-records';

/** The store and the accounts its links write (one table in DynamoDB). */
export interface CompanyIdentityStoreSubject {
  store: CompanyIdentityStore;
  users: UserRepository;
}

const ISSUER = 'https://idp.example.com';
const LATER = '2099-01-01T00:00:00.000Z';

const linkOf = (userId: string, subject = fresh('sub')): CompanyLink => ({
  issuer: ISSUER,
  subject,
  userId,
  linkedAt: '2026-01-02T00:00:00.000Z',
  linkedBy: 'FIRST_SIGN_IN',
});

/**
 * What CompanyIdentityStore promises (lambdas/ports/company-identity-store.ts), run against each adapter:
 * sign-ins, offers and tickets taken once; one account per company identity; a link and its account
 * written together or not at all. `make` may hand out the same store for every case: each case uses
 * identities and accounts of its own.
 */
export function companyIdentityStoreContract(
  adapter: string,
  make: () => Promise<CompanyIdentityStoreSubject>,
) {
  describe(`CompanyIdentityStore contract: ${adapter}`, () => {
    it('takes a sign-in transaction, a link offer and a reauthentication ticket once each', async () => {
      const { store } = await make();
      const tx: SignOnTransaction = {
        stateHash: fresh('state'),
        purpose: 'SIGN_IN',
        codeVerifier: 'verifier',
        nonce: 'nonce',
        bindingHash: 'binding',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: LATER,
      };
      await store.putTransaction(tx);
      await expect(store.putTransaction(tx)).rejects.toThrow();
      expect(await store.takeTransaction(tx.stateHash)).toEqual(tx);
      expect(await store.takeTransaction(tx.stateHash)).toBeNull();

      const offer: LinkOffer = {
        ticketHash: fresh('offer'),
        userId: fresh('u'),
        issuer: ISSUER,
        subject: fresh('sub'),
        email: 'sam@example.com',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: LATER,
      };
      await store.putLinkOffer(offer);
      await expect(store.putLinkOffer(offer)).rejects.toThrow();
      expect(await store.getLinkOffer(offer.ticketHash)).toEqual(offer);
      expect(await store.takeLinkOffer(offer.ticketHash)).toBe(true);
      expect(await store.takeLinkOffer(offer.ticketHash)).toBe(false);
      expect(await store.getLinkOffer(offer.ticketHash)).toBeNull();

      const ticket: ReauthTicket = {
        ticketHash: fresh('ticket'),
        userId: fresh('u'),
        issuer: ISSUER,
        subject: fresh('sub'),
        authTime: '2026-01-01T00:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: LATER,
      };
      await store.putReauthTicket(ticket);
      expect(await store.takeReauthTicket(ticket.ticketHash)).toEqual(ticket);
      expect(await store.takeReauthTicket(ticket.ticketHash)).toBeNull();
    });

    it('creates an account with its link once; a taken address or identity writes nothing', async () => {
      const { store, users } = await make();
      const u = user();
      const link = linkOf(u.id);
      expect(await store.createLinkedAccount(u, link)).toBe('ok');
      expect(await store.getLink(ISSUER, link.subject)).toEqual(link);
      expect(await users.getById(u.id)).toEqual(u);
      expect(await users.getByEmail(u.email)).toEqual(u);
      expect(await store.getLink(ISSUER, fresh('sub'))).toBeNull();

      const sameIdentity = user();
      expect(await store.createLinkedAccount(sameIdentity, { ...link, userId: sameIdentity.id })).toBe(
        'identityTaken',
      );
      expect(await users.getById(sameIdentity.id)).toBeNull();
      expect(await users.getByEmail(sameIdentity.email)).toBeNull();

      const sameAddress = { ...user(), email: u.email };
      const otherLink = linkOf(sameAddress.id);
      expect(await store.createLinkedAccount(sameAddress, otherLink)).toBe('emailTaken');
      expect(await store.getLink(ISSUER, otherLink.subject)).toBeNull();
      expect(await users.getById(sameAddress.id)).toBeNull();
    });

    it('links and unlinks an identity with the account written over its version, or nothing', async () => {
      const { store, users } = await make();
      const u = user();
      await users.create(u);
      const link = linkOf(u.id);
      const { userId: _holder, ...identity } = link;
      const linked = { ...u, version: 2, companyIdentity: { ...identity, email: u.email } };
      expect(await store.link(link, linked, 9)).toBe('conflict');
      expect(await store.getLink(ISSUER, link.subject)).toBeNull();
      expect(await store.link(link, linked, 1)).toBe('ok');
      expect(await store.getLink(ISSUER, link.subject)).toEqual(link);
      expect((await users.getById(u.id))?.version).toBe(2);

      const other = user();
      await users.create(other);
      expect(await store.link({ ...link, userId: other.id }, { ...other, version: 2 }, 1)).toBe(
        'identityTaken',
      );
      expect(await users.getById(other.id)).toEqual(other);

      const unlinked = { ...u, version: 3 };
      // only the holder unlinks, over the version it read
      expect(await store.unlink(ISSUER, link.subject, { ...other, version: 2 }, 1)).toBe(false);
      expect(await store.unlink(ISSUER, link.subject, unlinked, 1)).toBe(false);
      expect(await store.getLink(ISSUER, link.subject)).toEqual(link);
      expect(await store.unlink(ISSUER, link.subject, unlinked, 2)).toBe(true);
      expect(await store.getLink(ISSUER, link.subject)).toBeNull();
      expect(await users.getById(u.id)).toEqual(unlinked);
      expect(await store.unlink(ISSUER, link.subject, { ...unlinked, version: 4 }, 3)).toBe(false);
    });
  });
}
