import type { UserRef } from '../../../shared/api/contracts/packages';
import { personalName } from '../../../shared/domain/access-tokens';
import { type PackageTombstone, utcMinute } from '../../../shared/domain/package-deletion';
import { packageLinkPath } from '../../../shared/domain/package-link';
import { packageTypeLabel } from '../../../shared/domain/package-type-label';
import { roleLabel } from '../../../shared/domain/roles';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';

/**
 * Every workflow mail of the package lifecycle, word for word in one place. Each text names its reader
 * and links to the package itself (the SPA's deep link opens the page where they act, after
 * sign-in when needed); `appUrl` is the portal's address.
 *
 * Layout (decision 195): the greeting, then the portal's own link and the facts (package, type,
 * resource, who asks what, types and roles by their labels), then words other people typed — the initiator's note, a
 * rejection reason — each quoted line by line and marked as theirs. Whatever a note says (a look-alike link
 * included) comes after the real link and cannot pass for the portal's text.
 */
export interface MailText {
  subject: string;
  text: string;
}

export type Pkg = Pick<PackageRecord, 'id' | 'name' | 'type' | 'resourceName' | 'note'> & {
  initiator?: PersonWithRole;
};
export type Person = Pick<UserRef, 'name'>;
type DeliveredFile = Pick<ArtefactRef, 'generatedAt' | 'sizeBytes' | 'sha256' | 'versionId'>;
export type PersonWithRole = { name: string; userRole: string };

/**
 * A mail greets the person by their own name: a package made through a pipeline token records its
 * initiator as "Dana Dev (access token 'ci')", which is true in the record and wrong in a greeting.
 */
export const greeting = (to: Pick<UserRef, 'name'>) => `Hello ${personalName(to.name)},`;

export const lines = (...l: (string | false)[]) => l.filter((x): x is string => x !== false).join('\n');

/** The package's own page in the portal (the SPA's deep link). */
export const linkTo = (appUrl: string, p: Pick<Pkg, 'id'>) => `${appUrl}${packageLinkPath(p.id)}`;

/** A person with their role's label, never its code: "Ida Initiator (Design Engineer (dev))". */
export const withRole = (u: PersonWithRole) => `${u.name} (${roleLabel(u.userRole)})`;

/** Line breaks of every kind a mail reader may honour (CR, LF, NEL, LS, PS). */
const LINE_BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/;

/**
 * Words someone typed, marked as theirs and quoted: every line starts with "> ", so no line of it can
 * stand as the portal's own text, whatever it contains.
 */
export function quoted(heading: string, words: string): string {
  const body = words
    .split(LINE_BREAK)
    .map((l) => `> ${l}`)
    .join('\n');
  return `${heading}\n${body}`;
}

/** The initiator's note, last: quoted and marked as the initiator's words. */
const noteOf = (p: Pkg) =>
  quoted(
    p.initiator
      ? `${p.initiator.name}'s note (the initiator's own words, quoted as written):`
      : "The initiator's note (their own words, quoted as written):",
    p.note,
  );

/** The facts block: the package, its type (in words) and resource, then the lines given. */
export const facts = (p: Pkg, ...more: string[]) =>
  lines(`Package: ${p.name}`, `Type: ${packageTypeLabel(p.type)}`, `Resource: ${p.resourceName}`, ...more);

export const openIt = (link: string) => `Open it here: ${link}`;

function request(
  to: Person,
  p: Pkg,
  from: PersonWithRole,
  verb: string,
  link: string,
  asked: string,
): string {
  return lines(
    greeting(to),
    '',
    `${withRole(from)} asks you to ${verb} the package "${p.name}".`,
    openIt(link),
    '',
    facts(
      p,
      ...(p.initiator ? [`Initiator: ${withRole(p.initiator)}`] : []),
      `Asked by: ${withRole(from)}`,
      `Asked of you: ${asked}`,
    ),
    '',
    noteOf(p),
  );
}

/** The step a rejection refused: the approval round, the signature, or the delivery round. */
export type RejectedStep = 'approval' | 'signing' | 'delivery';

/** What each rejection mail says happened (a rejected delivery is not "Package rejected"). */
const REJECTED_STEP: Record<
  RejectedStep,
  { subject: string; did: (name: string) => string; means: string; by: string }
> = {
  approval: {
    subject: 'Approval rejected',
    did: (name) => `rejected the package "${name}" in approval.`,
    means: 'The package is rejected: it will not be generated.',
    by: 'Rejected in approval by',
  },
  signing: {
    subject: 'Signature refused',
    did: (name) => `refused to sign the package "${name}".`,
    means: 'The package is rejected: it will not be released.',
    by: 'Signature refused by',
  },
  delivery: {
    subject: 'Delivery rejected',
    did: (name) => `rejected the delivery of the package "${name}".`,
    means:
      'The package stays approved and is not delivered to devices; the release engineer may deliver it again.',
    by: 'Delivery rejected by',
  },
};

/** The role a reader was chosen for, by its label (the request mails). */
const asRole = (to: Partial<Pick<UserRef, 'userRole'>>) =>
  to.userRole ? `, as ${roleLabel(to.userRole)}` : '';

export const MAIL_TEXTS = {
  /** to each chosen approver, when the initiator sends the package for approval */
  approvalRequested: (
    to: Person & Partial<Pick<UserRef, 'userRole'>>,
    p: Pkg,
    from: PersonWithRole,
    appUrl: string,
  ): MailText => ({
    subject: `Approval requested: package ${p.name}`,
    text: request(to, p, from, 'approve', linkTo(appUrl, p), `your approval${asRole(to)}`),
  }),
  /** to each chosen delivery approver, when a release engineer (re-)delivers */
  deliveryRequested: (
    to: Person & Partial<Pick<UserRef, 'userRole'>>,
    p: Pkg,
    from: PersonWithRole,
    appUrl: string,
  ): MailText => ({
    subject: `Delivery approval requested: package ${p.name}`,
    text: request(
      to,
      p,
      from,
      'approve the delivery of',
      linkTo(appUrl, p),
      `your approval of its delivery to devices${asRole(to)}`,
    ),
  }),
  /**
   * to a chosen approver whose turn the approval policy's order opened (docs/approval-policy.md): every
   * approver they approve after has approved; `after` names those roles
   */
  turnOpened: (
    to: Person & Partial<Pick<UserRef, 'userRole'>>,
    p: Pkg,
    after: string,
    verb: 'approve' | 'approve the delivery of',
    appUrl: string,
  ): MailText => ({
    subject: `Your turn to approve: package ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `The package "${p.name}" waited for ${after} before you; they have approved, and it now waits for you to ${verb} it.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, ...(p.initiator ? [`Initiator: ${withRole(p.initiator)}`] : [])),
      '',
      noteOf(p),
    ),
  }),
  /** to the signer, on the last approval of a signed package */
  signatureRequested: (
    signer: Person & Partial<Pick<UserRef, 'userRole'>>,
    p: Pkg,
    appUrl: string,
  ): MailText => ({
    subject: `Signature requested: package ${p.name}`,
    text: lines(
      greeting(signer),
      '',
      `The package "${p.name}" is fully approved and waits for your signature.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(
        p,
        ...(p.initiator ? [`Initiator: ${withRole(p.initiator)}`] : []),
        `Asked of you: your signature${asRole(signer)}`,
      ),
      '',
      noteOf(p),
    ),
  }),
  /** to the initiator, on the last approval of an unsigned package */
  generated: (initiator: Person, p: Pkg, appUrl: string): MailText => ({
    subject: `Package approved: ${p.name}`,
    text: lines(
      greeting(initiator),
      '',
      `Every approver approved "${p.name}". The package is generated.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p),
    ),
  }),
  /** to the initiator, when the signer signs */
  signed: (initiator: Person, p: Pkg, by: PersonWithRole, appUrl: string): MailText => ({
    subject: `Package signed: ${p.name}`,
    text: lines(
      greeting(initiator),
      '',
      `${by.name} signed "${p.name}". The signed package is ready.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `Signed by: ${withRole(by)}`),
    ),
  }),
  /**
   * to the initiator, on a rejection: the subject and the first line name the step that was refused
   * — the approval, the signature or the delivery — and what it means for the package
   */
  rejected: (
    initiator: Person,
    p: Pkg,
    by: PersonWithRole,
    note: string,
    appUrl: string,
    step: RejectedStep = 'approval',
  ): MailText => ({
    subject: `${REJECTED_STEP[step].subject}: ${p.name}`,
    text: lines(
      greeting(initiator),
      '',
      `${withRole(by)} ${REJECTED_STEP[step].did(p.name)} ${REJECTED_STEP[step].means}`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `${REJECTED_STEP[step].by}: ${withRole(by)}`),
      '',
      quoted(`${by.name}'s reason, in their own words (quoted as written):`, note),
    ),
  }),
  /** to the deliverer (when not the initiator), on a rejected delivery */
  deliveryRejected: (to: Person, p: Pkg, by: PersonWithRole, note: string, appUrl: string): MailText => ({
    subject: `Delivery rejected: ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `${withRole(by)} ${REJECTED_STEP.delivery.did(p.name)} ${REJECTED_STEP.delivery.means}`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `${REJECTED_STEP.delivery.by}: ${withRole(by)}`),
      '',
      quoted(`${by.name}'s reason, in their own words (quoted as written):`, note),
    ),
  }),
  /**
   * to the initiator and the deliverer, on the last delivery approval; names the file delivered (its
   * SHA-256, and its storage version where the bucket keeps versions: decision 302)
   */
  delivered: (to: Person, p: Pkg, appUrl: string, file: DeliveredFile): MailText => ({
    subject: `Package delivered: ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `"${p.name}" is delivered.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(
        p,
        `File delivered: generated on ${utcMinute(file.generatedAt)}, ${file.sizeBytes} bytes`,
        `SHA-256: ${file.sha256}`,
        ...(file.versionId ? [`Storage version: ${file.versionId}`] : []),
      ),
    ),
  }),
  /**
   * to everyone waiting on a package in flight, when an admin deletes it: the link opens a page
   * that says the same (who deleted it, when and why)
   */
  deleted: (to: Person, p: Pkg, t: PackageTombstone, appUrl: string): MailText => ({
    subject: `Package deleted: ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `${withRole(t.deletedBy)} deleted the package "${p.name}" on ${utcMinute(t.deletedAt)}. Nothing waits for you on it any more.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `Deleted by: ${withRole(t.deletedBy)}`, `Deleted on: ${utcMinute(t.deletedAt)}`),
      '',
      quoted(`${t.deletedBy.name}'s reason, in their own words (quoted as written):`, t.reason ?? ''),
    ),
  }),
  /** to the initiator, the deliverer and the other admins: one admin proposed deleting a delivered package */
  deletionProposed: (
    to: Person,
    p: Pkg,
    by: PersonWithRole,
    expiresAt: string,
    reason: string,
    appUrl: string,
  ): MailText => ({
    subject: `Deletion proposed: package ${p.name}`,
    text: lines(
      `Hello ${to.name},`,
      '',
      `${withRole(by)} proposed deleting the delivered package "${p.name}" with its generated files. It is deleted only when a second administrator confirms, until ${utcMinute(expiresAt)}.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `Proposed by: ${withRole(by)}`),
      '',
      quoted(`${by.name}'s reason, in their own words (quoted as written):`, reason),
    ),
  }),
} as const;
