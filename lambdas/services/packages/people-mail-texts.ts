import { roleLabel } from '../../../shared/domain/roles';
import { type Seat, seatLabel } from '../../../shared/domain/seats';
import {
  facts,
  greeting,
  lines,
  linkTo,
  type MailText,
  openIt,
  type Person,
  type PersonWithRole,
  type Pkg,
  quoted,
  withRole,
} from './mail-texts';

/** A place and the person who held or holds it: "Dana Design as approver (Design Engineer (test))". */
export interface SeatChange {
  seat: Seat;
  role: string;
  from: Person;
  to: Person;
}

const placeOf = (c: Pick<SeatChange, 'seat' | 'role'>) => `${seatLabel(c.seat)} (${roleLabel(c.role)})`;

/** The mails of a change of people (decision 351), in the layout of mail-texts.ts. */
export const PEOPLE_MAIL_TEXTS = {
  /** to the person whose place was given to someone else, and to the initiator when an admin did it */
  reassigned: (
    to: Person,
    p: Pkg,
    c: SeatChange,
    by: PersonWithRole,
    reason: string,
    appUrl: string,
  ): MailText => ({
    subject: `Reassigned: package ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `${withRole(by)} gave the place of ${c.from.name} as ${placeOf(c)} on the package "${p.name}" to ${c.to.name}. ${c.from.name} no longer decides on it.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `Reassigned by: ${withRole(by)}`),
      '',
      quoted(`${by.name}'s reason, in their own words (quoted as written):`, reason),
    ),
  }),
  /** to everyone who was chosen in the round, and to the initiator when an admin did it */
  withdrawn: (to: Person, p: Pkg, by: PersonWithRole, reason: string, appUrl: string): MailText => ({
    subject: `Withdrawn from approval: package ${p.name}`,
    text: lines(
      greeting(to),
      '',
      `${withRole(by)} withdrew the package "${p.name}" from approval: it is a draft again, and nothing waits for your decision on it. Every approval of this round is cleared; it will be sent for approval again.`,
      openIt(linkTo(appUrl, p)),
      '',
      facts(p, `Withdrawn by: ${withRole(by)}`),
      '',
      quoted(`${by.name}'s reason, in their own words (quoted as written):`, reason),
    ),
  }),
} as const;
