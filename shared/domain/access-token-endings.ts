import { holdsAuthority, type IdentityFields, roleStatusOf } from './identity';
import type { Role } from './roles';

/**
 * Access tokens end for good (docs/decisions/334-access-tokens-bound-to-an-epoch.md): each token carries its
 * owner's token epoch at creation; a role change, a refusal or revocation of the role, a password reset
 * (a mailed temporary password used) and a password change move the epoch on, in the same write as the
 * change itself, and remember when and why. A token whose epoch is not its owner's any more is refused at
 * every use, whatever the owner's role and password are afterwards: nothing brings it back.
 */

/** The longest life of an access token, in days (access-tokens.ts re-exports it for the schema). */
export const ACCESS_TOKEN_MAX_DAYS = 90;

export const TOKEN_ENDING_CAUSES = [
  'ROLE_CHANGED',
  'ROLE_REFUSED',
  'PASSWORD_RESET',
  'PASSWORD_CHANGED',
  'OWNER_DELETED',
  'AUTHORITY_LOST',
  'EARLIER_CHANGE',
] as const;
export type TokenEndingCause = (typeof TOKEN_ENDING_CAUSES)[number];

/** How the token list and the refusal name a cause ("ended: the owner's role changed on …"). */
export const TOKEN_ENDING_TEXT: Record<TokenEndingCause, string> = {
  ROLE_CHANGED: "the owner's role changed",
  ROLE_REFUSED: "the owner's role was refused or revoked by an administrator",
  PASSWORD_RESET: "the owner's password was reset",
  PASSWORD_CHANGED: "the owner's password was changed",
  OWNER_DELETED: "the owner's account was deleted",
  AUTHORITY_LOST: "the owner's account holds no role authority",
  EARLIER_CHANGE: "the owner's role or password changed",
};

/** One move of an account's token epoch: the tokens of `epoch - 1` ended then, for this cause. */
export interface TokenEnding {
  epoch: number;
  at: string;
  cause: TokenEndingCause;
}

/** Why a token ended, as the list shows it (`at` is missing when the moment is not known). */
export interface TokenEnded {
  cause: TokenEndingCause;
  at?: string;
}

/** The fields of an account its tokens are bound to. */
export interface TokenOwnerFields extends IdentityFields {
  passwordHash: string;
  tempPasswordHash?: string;
  mustChangePassword?: boolean;
  /** moves on with every ending; missing: 0 (an account no ending has touched yet) */
  tokenEpoch?: number;
  /** the recent endings, oldest first: a token made within the last 90 days finds its own here */
  tokenEndings?: TokenEnding[];
}

/** the endings an account keeps (beyond these, a token's ending is named without its moment) */
const KEPT_ENDINGS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What, in a write from `prev` to `next`, ends the account's tokens; null when nothing does. */
export function tokenEndingCause(prev: TokenOwnerFields, next: TokenOwnerFields): TokenEndingCause | null {
  if (prev.userRole !== next.userRole) return 'ROLE_CHANGED';
  const after = roleStatusOf(next);
  if (roleStatusOf(prev) === 'GRANTED' && after !== 'GRANTED')
    return after === 'REFUSED' ? 'ROLE_REFUSED' : 'ROLE_CHANGED';
  if (prev.passwordHash !== next.passwordHash)
    // a used temporary password becomes the password: that is the reset taking effect
    return prev.tempPasswordHash !== undefined && next.passwordHash === prev.tempPasswordHash
      ? 'PASSWORD_RESET'
      : 'PASSWORD_CHANGED';
  return null;
}

/**
 * `next` as it must be stored: with the epoch moved on and the ending remembered when the write ends the
 * account's tokens, unchanged otherwise. Every write of a user that can change its role, role status or
 * password goes through it, so the ending commits with the change and its audit event.
 */
export function withTokenEnding<T extends TokenOwnerFields>(prev: T, next: T, at: string): T {
  const cause = tokenEndingCause(prev, next);
  if (!cause) return next;
  const epoch = (prev.tokenEpoch ?? 0) + 1;
  // an ending older than the longest token life ended only tokens that have expired since
  const horizon = Date.parse(at) - ACCESS_TOKEN_MAX_DAYS * DAY_MS;
  const kept = (prev.tokenEndings ?? []).filter((e) => Date.parse(e.at) > horizon).slice(1 - KEPT_ENDINGS);
  return { ...next, tokenEpoch: epoch, tokenEndings: [...kept, { epoch, at, cause }] };
}

/**
 * Why a token made at `token.ownerEpoch` no longer acts for its owner, or null while it does. Besides the
 * epoch, a token is refused while its owner's role differs from the one it was made under, holds no
 * authority or must change the password: the conditions written before the epoch existed.
 */
export function tokenEndedBy(
  token: { userRole: Role; ownerEpoch?: number },
  owner: TokenOwnerFields | null,
): TokenEnded | null {
  if (!owner) return { cause: 'OWNER_DELETED' };
  const epoch = token.ownerEpoch ?? 0;
  if ((owner.tokenEpoch ?? 0) !== epoch) {
    const first = owner.tokenEndings?.find((e) => e.epoch === epoch + 1);
    return first ? { cause: first.cause, at: first.at } : { cause: 'EARLIER_CHANGE' };
  }
  if (owner.userRole !== token.userRole) return { cause: 'ROLE_CHANGED' };
  if (!holdsAuthority(owner))
    return { cause: roleStatusOf(owner) === 'REFUSED' ? 'ROLE_REFUSED' : 'AUTHORITY_LOST' };
  if (owner.mustChangePassword) return { cause: 'PASSWORD_RESET' };
  return null;
}

/** "the owner's role changed on 2026-11-29 09:41 UTC": the words of the list and of the refusal. */
export function tokenEndedText(e: TokenEnded): string {
  const when = e.at ? ` on ${e.at.slice(0, 16).replace('T', ' ')} UTC` : '';
  return `${TOKEN_ENDING_TEXT[e.cause]}${when}`;
}
