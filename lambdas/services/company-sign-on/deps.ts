import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CompanyIdentityStore } from '../../ports/company-identity-store';
import type { IdentityProvider } from '../../ports/identity-provider';
import type { UserDeps } from '../users/common';

/** The stage's company sign-on, as the service reads it (infra/stages.ts `identityProvider`, decision 315). */
export interface CompanySignOnConfig {
  /** the company's display name */
  name: string;
  /** only addresses of these domains sign in through the provider (lower case, never empty) */
  allowedEmailDomains: readonly string[];
  /** sign-ins started per source address per window, before any call to the provider */
  startLimit: { perSource: number; windowSeconds: number };
}

/** What the company sign-on use cases work with: the identity service's ports, the store and the provider. */
export interface CompanySignOnDeps extends UserDeps {
  identities: CompanyIdentityStore;
  idp: IdentityProvider;
  company: CompanySignOnConfig;
}

/** A secret for the browser (state, binding, tickets): 32 random bytes, base64url. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Only the SHA-256 of a secret is stored: a read of the table proves nothing to anyone. */
export const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares a secret with a stored hash in constant time. */
export function matchesHash(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashOf(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `now` plus `seconds`, as ISO text. */
export const after = (now: Date, seconds: number): string =>
  new Date(now.getTime() + seconds * 1000).toISOString();
