import type { UserRef } from '../../../shared/api/contracts/packages';
import { packageLinkPath } from '../../../shared/domain/package-link';
import type { PackageRecord } from '../../ports/package-repository';

/**
 * Every workflow mail of the package lifecycle, word for word in one place. Each text names its reader
 * and links to the package itself (issue 16: the SPA's deep link opens the page where they act, after
 * sign-in when needed); `appUrl` is the portal's address.
 */
export interface MailText {
  subject: string;
  text: string;
}

type Pkg = Pick<PackageRecord, 'id' | 'name' | 'type' | 'resourceName' | 'note'>;
type Person = Pick<UserRef, 'name'>;

const lines = (...l: string[]) => l.join('\n');

/** The package's own page in the portal (the SPA's deep link). */
const linkTo = (appUrl: string, p: Pkg) => `${appUrl}${packageLinkPath(p.id)}`;

function request(to: Person, p: Pkg, from: Person, verb: string, link: string): string {
  return lines(
    `Hello ${to.name},`,
    '',
    `${from.name} asks you to ${verb} the package "${p.name}" (${p.type}, resource ${p.resourceName}).`,
    '',
    `Initiator's note: ${p.note}`,
    '',
    `Open it here: ${link}`,
  );
}

export const MAIL_TEXTS = {
  /** to each chosen approver, when the initiator sends the package for approval */
  approvalRequested: (to: Person, p: Pkg, from: Person, appUrl: string): MailText => ({
    subject: `Approval requested: package ${p.name}`,
    text: request(to, p, from, 'approve', linkTo(appUrl, p)),
  }),
  /** to each chosen delivery approver, when a release engineer (re-)delivers */
  deliveryRequested: (to: Person, p: Pkg, from: Person, appUrl: string): MailText => ({
    subject: `Delivery approval requested: package ${p.name}`,
    text: request(to, p, from, 'approve the delivery of', linkTo(appUrl, p)),
  }),
  /** to the signer, on the last approval of a signed package */
  signatureRequested: (signer: Person, p: Pkg, appUrl: string): MailText => ({
    subject: `Signature requested: package ${p.name}`,
    text: lines(
      `Hello ${signer.name},`,
      '',
      `The package "${p.name}" is fully approved and waits for your signature.`,
      '',
      `Initiator's note: ${p.note}`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
  /** to the initiator, on the last approval of an unsigned package */
  generated: (initiator: Person, p: Pkg, appUrl: string): MailText => ({
    subject: `Package approved: ${p.name}`,
    text: lines(
      `Hello ${initiator.name},`,
      '',
      `Every approver approved "${p.name}". The package is generated.`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
  /** to the initiator, when the signer signs */
  signed: (initiator: Person, p: Pkg, by: Person, appUrl: string): MailText => ({
    subject: `Package signed: ${p.name}`,
    text: lines(
      `Hello ${initiator.name},`,
      '',
      `${by.name} signed "${p.name}". The signed package is ready.`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
  /** to the initiator, on any rejection (approval, signing, delivery) */
  rejected: (
    initiator: Person,
    p: Pkg,
    by: Pick<UserRef, 'name' | 'userRole'>,
    note: string,
    appUrl: string,
  ): MailText => ({
    subject: `Package rejected: ${p.name}`,
    text: lines(
      `Hello ${initiator.name},`,
      '',
      `${by.name} (${by.userRole}) rejected "${p.name}".`,
      '',
      `Reason: ${note}`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
  /** to the deliverer (when not the initiator), on a rejected delivery */
  deliveryRejected: (p: Pkg, by: Person, note: string, appUrl: string): MailText => ({
    subject: `Delivery rejected: ${p.name}`,
    text: lines(
      `${by.name} rejected the delivery of "${p.name}".`,
      '',
      `Reason: ${note}`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
  /** to the initiator and the deliverer, on the last delivery approval */
  delivered: (to: Person, p: Pkg, appUrl: string): MailText => ({
    subject: `Package delivered: ${p.name}`,
    text: lines(
      `Hello ${to.name},`,
      '',
      `"${p.name}" is delivered.`,
      '',
      `Open it here: ${linkTo(appUrl, p)}`,
    ),
  }),
} as const;
