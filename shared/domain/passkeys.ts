import { APPROVAL_POLICY, type ApprovalPolicy } from './approval-policy';
import type { Role } from './roles';

/**
 * Passkeys (WebAuthn) as a second factor at sign-in and as the re-authentication of an electronic
 * signature (docs/decisions/322-passkeys-second-factor.md). The ceremonies are checked by
 * @simplewebauthn/server; what lives here are the rules both the server and the SPA read: who must sign
 * with a passkey, the two-admin removal of a lost passkey, names, and the texts people see.
 */

/** How long a sign-in's "second factor pending" ticket and a signature's challenge stay usable. */
export const SIGN_IN_TICKET_SECONDS = 5 * 60;
export const CEREMONY_SECONDS = 2 * 60;
/** A removal proposed by one admin lapses after this many days unless a second admin confirms it. */
export const PASSKEY_REMOVAL_DAYS = 7;
/** At most this many passkeys per account (each one is a way in: a short list stays reviewable). */
export const MAX_PASSKEYS = 10;

/**
 * The roles that must sign with a passkey when the stage requires passkeys: every role the approval policy
 * lets approve, sign or deliver, and the admins (their grants and signed deletions are signatures too).
 */
export function passkeyRoles(policy: ApprovalPolicy = APPROVAL_POLICY): ReadonlySet<Role> {
  const roles = new Set<Role>(['ADMIN', policy.signer.role, policy.deliverer.role]);
  for (const round of Object.values(policy.rounds))
    for (const list of Object.values(round.roles)) for (const r of list) roles.add(r);
  return roles;
}

/** Whether a holder of `role` must confirm signatures with a passkey, given the stage's setting. */
export const passkeyRequiredFor = (role: Role, stageRequires: boolean): boolean =>
  stageRequires && passkeyRoles().has(role);

/** A removal of someone's passkey proposed by one admin, kept on the passkey until confirmed or lapsed. */
export interface PasskeyRemovalProposal {
  proposedById: string;
  proposedByName: string;
  proposedByEmail: string;
  /** ISO 8601, UTC */
  proposedAt: string;
  reason: string;
}

export const removalExpiresAt = (proposedAt: string): string =>
  new Date(Date.parse(proposedAt) + PASSKEY_REMOVAL_DAYS * 24 * 60 * 60 * 1000).toISOString();

/** The proposal that still counts (not lapsed), if any. */
export function liveRemovalProposal(
  p: { removalProposal?: PasskeyRemovalProposal },
  now: Date,
): PasskeyRemovalProposal | undefined {
  const r = p.removalProposal;
  return r && Date.parse(removalExpiresAt(r.proposedAt)) > now.getTime() ? r : undefined;
}

export type RemovalStep =
  | { kind: 'PROPOSE' }
  | { kind: 'CONFIRM'; proposal: PasskeyRemovalProposal }
  | { kind: 'REFUSED'; statusCode: 403; reason: string };

/**
 * Two admins remove a lost passkey, as they grant roles (decision 180): the first proposes, a second,
 * different admin confirms. Nobody removes their own passkey this way (Settings → Passkeys does that,
 * confirmed by the owner), and an admin never confirms their own proposal.
 */
export function removalStep(
  admin: { id: string },
  owner: { id: string },
  passkey: { removalProposal?: PasskeyRemovalProposal },
  now: Date,
): RemovalStep {
  if (owner.id === admin.id) return { kind: 'REFUSED', statusCode: 403, reason: PASSKEY_TEXT.ownByAdmins };
  const proposal = liveRemovalProposal(passkey, now);
  if (!proposal) return { kind: 'PROPOSE' };
  if (proposal.proposedById === admin.id)
    return { kind: 'REFUSED', statusCode: 403, reason: PASSKEY_TEXT.ownProposal };
  return { kind: 'CONFIRM', proposal };
}

/** What the admins' removal signatures mean (shown in the dialog, recorded in the audit trail). */
export const PASSKEY_REMOVAL_MEANINGS = {
  proposeRemoval:
    'I propose removing this passkey from the account shown: it stops working only once a second administrator confirms it',
  confirmRemoval:
    'I confirm the removal of this passkey, proposed by another administrator: it no longer signs anyone in or signs anything, and the sessions of the account end',
} as const;
export type PasskeyRemovalAction = keyof typeof PASSKEY_REMOVAL_MEANINGS;

/** The texts of passkeys, one place (the SPA and the server say the same words). */
export const PASSKEY_TEXT = {
  /** a signature by password or company sign-in where the stage requires a passkey (403) */
  requiredForSignature:
    'Your role signs with a passkey. Add one in Settings → Passkeys (confirmed with your password), then sign again.',
  /** the deciding call named a passkey but the account has none */
  noPasskey: 'You have no passkey. Add one in Settings → Passkeys, or sign with your password.',
  /** any assertion that does not verify: wrong passkey, another user's, foreign origin, forged (403) */
  notVerified:
    'The passkey could not be verified; nothing was recorded. Try again with a passkey registered to your account.',
  /** a challenge used, expired or never issued (the ceremony starts again) */
  ceremonyGone: 'This passkey request has expired or was already used. Start again.',
  /** a signature's passkey without user verification (PIN, fingerprint) */
  noUserVerification:
    'Your passkey did not verify you (PIN, fingerprint or face): a signature needs that. Try again and confirm on the authenticator.',
  /** the authenticator's counter went backwards: possibly a cloned authenticator */
  counterRegressed:
    'This passkey answered with a signature counter lower than before, as a copied (cloned) authenticator would. It was refused and recorded; tell an administrator.',
  registrationNotVerified: 'The new passkey could not be verified; nothing was saved. Try again.',
  alreadyRegistered: 'This passkey is already registered.',
  tooMany: `An account holds at most ${MAX_PASSKEYS} passkeys: remove one first.`,
  notFound: 'No such passkey on this account.',
  ownByAdmins: 'Remove your own passkeys in Settings → Passkeys; administrators remove other people’s.',
  ownProposal: 'You proposed this removal: a second administrator must confirm it.',
  signInTicketGone: 'Your sign-in waited too long for the passkey, or was already finished. Sign in again.',
} as const;
