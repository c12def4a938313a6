import type { ApproverEntry, PackageStatus, UserRef } from './model/package';
import { approverList } from './package-rules';
import { roleLabel } from './roles';

/**
 * An admin's deletion of a package (decisions 195–199). A package is *in flight* while people
 * wait on it: for approvals, for the signature, for its generation after those, or for delivery approvals.
 * Deleting one is an electronic signature (password and reason), mails everyone waiting on it and leaves a
 * tombstone so a later link to it says who deleted it, when and why.
 */
export const IN_FLIGHT_STATUSES = [
  'PENDING_APPROVAL',
  'AWAITING_SIGNATURE',
  'GENERATING',
  'DELIVERY_PENDING',
] as const satisfies readonly PackageStatus[];

export function isInFlight(status: PackageStatus): boolean {
  return (IN_FLIGHT_STATUSES as readonly PackageStatus[]).includes(status);
}

/** The parts of a package that say who waits on it. */
export interface WaitingState {
  status: PackageStatus;
  initiator: UserRef;
  approvers?: Record<string, ApproverEntry>;
  signer?: UserRef;
  deliveryApprovers?: Record<string, ApproverEntry>;
  deliverer?: UserRef;
}

/**
 * Everyone waiting on a package in flight, each once: its initiator; while approvals run, its assigned
 * approvers and its signer; while it waits for the signature or its generation, its signer; while delivery
 * approvals run, its delivery approvers and the release engineer who delivered it. Nobody for a package
 * not in flight.
 */
export function waitingOn(p: WaitingState): UserRef[] {
  if (!isInFlight(p.status)) return [];
  const people: (UserRef | undefined)[] = [p.initiator];
  if (p.status === 'PENDING_APPROVAL') people.push(...approverList(p.approvers).map((a) => a.user), p.signer);
  if (p.status === 'AWAITING_SIGNATURE' || p.status === 'GENERATING') people.push(p.signer);
  if (p.status === 'DELIVERY_PENDING')
    people.push(...approverList(p.deliveryApprovers).map((a) => a.user), p.deliverer);
  const seen = new Set<string>();
  return people.filter((u): u is UserRef => !!u && !seen.has(u.id) && !!seen.add(u.id));
}

/** What is kept of a package an admin deleted: enough for a later link to say what happened. */
export interface PackageTombstone {
  id: string;
  name: string;
  /** the status it was deleted in */
  status: PackageStatus;
  deletedAt: string;
  deletedBy: { id: string; name: string; userRole: string };
  /** the admin's reason (given for every package in flight; optional otherwise) */
  reason?: string;
}

/** "27 Nov 2026, 06:40 UTC" */
export function utcMinute(iso: string): string {
  const d = new Date(iso);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/** The answer to a link to a deleted package (404 with this errorMessage, decision 197). */
export function deletedPackageMessage(t: PackageTombstone): string {
  const by = `${t.deletedBy.name} (${roleLabel(t.deletedBy.userRole)})`;
  const why = t.reason ? ` Reason: ${t.reason}` : ' No reason was given.';
  return `Package '${t.name}' was deleted by ${by} on ${utcMinute(t.deletedAt)}.${why}`;
}

/** The 400 of a plain id list that holds packages in flight (decision 196). */
export function signatureNeededMessage(names: readonly string[]): string {
  const list = names.map((n) => `'${n}'`).join(', ');
  return `${names.length === 1 ? 'Package' : 'Packages'} ${list} ${names.length === 1 ? 'is' : 'are'} waiting for approval, signature or delivery: people wait on ${names.length === 1 ? 'it' : 'them'}. Deleting ${names.length === 1 ? 'it' : 'them'} is an electronic signature: send { "ids": [...], "password": "...", "reason": "..." } with your password and the reason. Nothing was deleted.`;
}
