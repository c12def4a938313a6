import { API_ERR } from '../messages';
import { type Role, roleLabel } from './roles';

/**
 * Identity rules shared by the services and the web app (docs/decisions/070): a role chosen by
 * the person is a request until an admin grants it; release authority needs a confirmed mailbox and a
 * granted role. NONE: an account made by a first company sign-in, which has not asked for a role yet
 * (its stored `userRole` is a placeholder nobody sees: docs/decisions/316-company-account-without-role.md).
 */
export const ROLE_STATUSES = ['GRANTED', 'REQUESTED', 'REFUSED', 'NONE'] as const;
export type RoleStatus = (typeof ROLE_STATUSES)[number];

export interface IdentityFields {
  userRole: Role;
  roleStatus?: RoleStatus;
  emailConfirmed?: boolean;
}

/**
 * The stored status, or for records written before roles needed an admin's grant (no field, decision 070): ADMIN granted (only seeding or
 * `admin:create` ever made admins), everyone else REQUESTED, so no old account keeps authority unreviewed.
 */
export function roleStatusOf(u: IdentityFields): RoleStatus {
  return u.roleStatus ?? (u.userRole === 'ADMIN' ? 'GRANTED' : 'REQUESTED');
}

/** Confirmed mailbox; records written before mailboxes were confirmed count as unconfirmed except admins (decision 070). */
export function emailConfirmedOf(u: IdentityFields): boolean {
  return u.emailConfirmed ?? u.userRole === 'ADMIN';
}

/** True when the account may act in its role (confirmed mailbox, role granted by an admin). */
export function holdsAuthority(u: IdentityFields): boolean {
  return roleStatusOf(u) === 'GRANTED' && emailConfirmedOf(u);
}

/** Why an account without authority is refused, in words the user understands. */
export function missingAuthorityMessage(u: IdentityFields): string {
  const label = roleLabel(u.userRole);
  if (!emailConfirmedOf(u)) return API_ERR.emailNotConfirmed;
  if (roleStatusOf(u) === 'NONE') return API_ERR.noRoleYet;
  if (roleStatusOf(u) === 'REFUSED')
    return `Your role ${label} was refused by an administrator, so you can only see your own settings. Choose a role in Settings to ask again.`;
  return API_ERR.roleAwaitsGrant(label);
}

/** How long a mailed confirmation link stays valid. */
export const EMAIL_LINK_HOURS = 24;

/** How long an unconfirmed registration holds its address: then it is forgotten and the address is free. */
export const REGISTRATION_HOURS = 24;

/**
 * An unconfirmed registration whose time ran out: it counts as absent (DynamoDB's TTL removes it some time
 * later). Records without `unconfirmedUntil` (confirmed, or older than the 24-hour expiry, decision 186) never expire.
 */
export function registrationExpired(u: IdentityFields & { unconfirmedUntil?: string }, now: Date): boolean {
  return (
    !emailConfirmedOf(u) &&
    u.unconfirmedUntil !== undefined &&
    Date.parse(u.unconfirmedUntil) <= now.getTime()
  );
}
