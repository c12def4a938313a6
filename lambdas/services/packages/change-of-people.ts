import type {
  ApproverEntry,
  Package,
  ReassignRequest,
  UserRef,
} from '../../../shared/api/contracts/packages';
import { APPROVAL_POLICY, awaitedApprovers, excludedIds } from '../../../shared/domain/approval-policy';
import {
  type AccountNow,
  type Departure,
  departureReason,
  departuresOf,
  departureText,
  waitedOn,
} from '../../../shared/domain/departures';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import {
  APPROVAL_ROUND,
  DELIVERY_ROUND,
  isActor,
  type PackageAction,
  type VotingRound,
  WAITING_STATUSES,
} from '../../../shared/domain/package-lifecycle';
import { type Role, roleLabel } from '../../../shared/domain/roles';
import { type Seat, seatLabel } from '../../../shared/domain/seats';
import { signatureRecord } from '../../../shared/domain/signature-meanings';
import type { OutboxMail, PackageRecord, Task } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { ApproverChoice } from './approver-choice';
import { MAIL_TEXTS } from './mail-texts';
import type { SignedBy } from './package-changes';
import type { PackageCore } from './package-core';
import { toPackage, userRef } from './package-deps';
import { PEOPLE_MAIL_TEXTS } from './people-mail-texts';

/** A departure as the API answers it: with the sentence the screens and mails say. */
export type DepartureView = Departure & { text: string };

/** What waits for an owner: stalled packages with whom they wait on, and rejected ones to revise. */
export interface Attention {
  stalled: { pkg: Package; departures: DepartureView[] }[];
  rejected: Package[];
}

/**
 * Change of people (decision 351): the people a waiting package waits on who left their role, computed at
 * read time from their accounts; the owner's (initiator's or an admin's) signed reassignment of such a
 * place to another eligible person; the owner's signed withdrawal of a package in approval back to a draft.
 * Each change commits with its audit event, tasks and mails in one transaction (decision 283).
 */
export class ChangeOfPeople {
  constructor(
    private readonly core: PackageCore,
    private readonly choice: ApproverChoice,
  ) {}

  /** The people `p` waits on who can no longer decide, with the sentence that says so. */
  async departures(p: PackageRecord): Promise<DepartureView[]> {
    const waited = waitedOn(p);
    if (waited.length === 0) return [];
    const accounts = new Map<string, AccountNow>();
    for (const w of waited) accounts.set(w.user.id, await this.core.d.users.getById(w.user.id));
    return departuresOf(p, accounts).map((d) => ({ ...d, text: departureText(d) }));
  }

  /**
   * What waits for the caller as an owner (the home page): packages waiting on someone who left their
   * role (the caller's own; every one for an admin), and the caller's rejected packages not yet revised
   * (a package started from it ends the wait, decision 351). Read from the compact list index, then only
   * those packages.
   */
  async attention(user: UserRecord): Promise<Attention> {
    const { packages } = this.core.d;
    const admin = user.userRole === 'ADMIN';
    const ids = (await packages.compactList('ALL'))
      .filter((e) => WAITING_STATUSES.includes(e.status) || e.status === 'REJECTED')
      .map((e) => e.id);
    const mine = (await packages.getMany(ids)).filter((p) => admin || p.initiator.id === user.id);
    const stalled: Attention['stalled'] = [];
    for (const p of mine.filter((q) => WAITING_STATUSES.includes(q.status))) {
      const departures = await this.departures(p);
      if (departures.length) stalled.push({ pkg: toPackage(p), departures });
    }
    const rejected: Package[] = [];
    for (const p of mine.filter((q) => q.status === 'REJECTED' && q.initiator.id === user.id)) {
      const revised = (await packages.listByResource(p.resourceId)).some((q) => q.copiedFrom?.id === p.id);
      if (!revised) rejected.push(toPackage(p));
    }
    const newest = (a: Package, b: Package) => b.updatedAt.localeCompare(a.updatedAt);
    return { stalled: stalled.sort((a, b) => newest(a.pkg, b.pkg)), rejected: rejected.sort(newest) };
  }

  /** The owner's check of a change of people: the initiator or an admin, and a status the table allows. */
  private assertOwner(p: PackageRecord, user: UserRecord, action: PackageAction, refusal: string) {
    if (!isActor(p, user, 'owner'))
      throw new ForbiddenError(`Only the initiator of the package or an admin can ${action} it`);
    return this.core.nextStatus(p, action, refusal);
  }

  async reassign(user: UserRecord, id: string, req: ReassignRequest, how: SignedBy): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = this.assertOwner(
      p,
      user,
      'reassign',
      'Only a package waiting for approval, signature or delivery approval can be reassigned',
    );
    const held = waitedOn(p).find((w) => w.seat === req.seat && w.user.id === req.from);
    if (!held)
      throw new ConflictError(
        `The package does not wait on that person as ${seatLabel(req.seat)}; reload it and try again`,
      );
    // only a place whose holder left is reassigned: changing a working approver is a withdrawal and a new round
    const why = departureReason(held.role, await core.d.users.getById(req.from));
    if (!why)
      throw new ConflictError(
        `${held.user.name} still holds the role ${roleLabel(held.role)}: only the place of someone who left it can be reassigned. Withdraw the package to choose other approvers.`,
      );
    const to = await this.eligible(p, held.seat, held.role, req.to);
    const now = core.now().toISOString();
    const round: VotingRound | undefined =
      held.seat === 'approver'
        ? APPROVAL_ROUND
        : held.seat === 'deliveryApprover'
          ? DELIVERY_ROUND
          : undefined;
    const next: PackageRecord = { ...p, status, updatedAt: now, version: p.version + 1 };
    if (round) {
      const list: Record<string, ApproverEntry> = { ...p[round.list] };
      delete list[req.from];
      list[to.id] = { user: userRef(to), role: held.role, approved: false, rejected: false };
      next[round.list] = list;
    } else {
      next.signer = userRef(to);
    }
    const kind = round ? round.task : 'SIGN';
    const task: Task = { kind, userId: to.id, packageId: p.id, stage: p.resourceStage, createdAt: now };
    const change = { seat: held.seat, role: held.role, from: held.user, to: userRef(to) };
    const told: UserRef[] = [held.user, ...(p.initiator.id === user.id ? [] : [p.initiator])];
    const mails: OutboxMail[] = told.map((who) =>
      core.mail(
        next,
        next.version,
        'REASSIGNED',
        who,
        PEOPLE_MAIL_TEXTS.reassigned(who, p, change, user, req.reason, core.d.appUrl),
      ),
    );
    // the new person is asked now, unless the policy's order has them wait for others first
    if (!round || awaitedApprovers(next, to.id, round).length === 0) mails.push(this.askMail(next, to, user));
    await core.saveOrConflict(
      next,
      { version: p.version, status: p.status },
      {
        add: [task],
        remove: [{ kind, userId: req.from }],
        mails,
        events: [
          core.event(next, user, 'REASSIGNED', `reassigns the ${seatLabel(held.seat)} of the package`, {
            seat: held.seat,
            role: held.role,
            from: { id: held.user.id, name: held.user.name, why },
            to: { id: to.id, name: to.name, role: to.userRole },
            reason: req.reason,
            signature: signatureRecord('reassign', user, now, p.type, how.signatureMethod),
          }),
        ],
      },
    );
    return toPackage(next);
  }

  /** The mail asking the new holder of the place to decide. */
  private askMail(next: PackageRecord, to: UserRecord, by: UserRecord): OutboxMail {
    const { core } = this;
    const appUrl = core.d.appUrl;
    if (next.status === DELIVERY_ROUND.waiting)
      return core.mail(
        next,
        next.version,
        'DELIVERY_REQUESTED',
        to,
        MAIL_TEXTS.deliveryRequested(to, next, by, appUrl),
      );
    if (next.status === APPROVAL_ROUND.waiting)
      return core.mail(
        next,
        next.version,
        'APPROVAL_REQUESTED',
        to,
        MAIL_TEXTS.approvalRequested(to, next, by, appUrl),
      );
    return core.mail(
      next,
      next.version,
      'SIGNATURE_REQUESTED',
      to,
      MAIL_TEXTS.signatureRequested(to, next, appUrl),
    );
  }

  /**
   * Whom the place may go to: a granted holder of the role the place was chosen for, not kept out by the
   * approval policy (initiator, uploader, starter of the round) and not already chosen in the round.
   */
  private async eligible(p: PackageRecord, seat: Seat, role: Role, toId: string): Promise<UserRecord> {
    const candidate = (await this.choice.candidates()).find((c) => c.id === toId);
    if (!candidate || candidate.userRole !== role)
      throw new BadRequestError(
        `The new ${seatLabel(seat)} must hold the role ${roleLabel(role)}, granted by an admin`,
      );
    const parties: PackageRecord = { ...p, uploader: await this.choice.uploader(p) };
    const rules =
      seat === 'signer'
        ? APPROVAL_POLICY.signer.excluded
        : APPROVAL_POLICY.rounds[seat === 'approver' ? 'approval' : 'delivery'].excluded;
    const starter = seat === 'deliveryApprover' ? p.deliverer?.id : p.initiator.id;
    if (excludedIds(rules, parties, starter).includes(toId))
      throw new BadRequestError(
        `${candidate.name} cannot take this place: the approval policy keeps them out of deciding on this package`,
      );
    const apart = !APPROVAL_POLICY.signer.mayAlsoApprove;
    const alreadyChosen =
      seat === 'deliveryApprover'
        ? !!p.deliveryApprovers[toId]
        : seat === 'approver'
          ? !!p.approvers[toId] || (apart && p.signer?.id === toId)
          : apart && !!p.approvers[toId];
    if (alreadyChosen)
      throw new BadRequestError(`${candidate.name} is already chosen on this package; choose someone else`);
    return candidate;
  }

  async withdraw(user: UserRecord, id: string, reason: string, how: SignedBy): Promise<Package> {
    const { core } = this;
    const p = await core.mustGet(id);
    const status = this.assertOwner(
      p,
      user,
      'withdraw',
      'Only a package waiting for approval or signature can be withdrawn to a draft',
    );
    const now = core.now().toISOString();
    const next: PackageRecord = {
      ...p,
      status,
      approvers: {},
      approverCount: 0,
      approvedCount: 0,
      signer: undefined,
      generation: undefined,
      updatedAt: now,
      version: p.version + 1,
    };
    // everyone chosen in the round hears it (the initiator too when an admin withdrew it)
    const people = new Map<string, UserRef>();
    for (const e of Object.values(p.approvers)) people.set(e.user.id, e.user);
    if (p.signer) people.set(p.signer.id, p.signer);
    if (p.initiator.id !== user.id) people.set(p.initiator.id, p.initiator);
    people.delete(user.id);
    const mails = [...people.values()].map((who) =>
      core.mail(
        next,
        next.version,
        'WITHDRAWN',
        who,
        PEOPLE_MAIL_TEXTS.withdrawn(who, p, user, reason, core.d.appUrl),
      ),
    );
    await core.saveOrConflict(
      next,
      { version: p.version, status: p.status },
      {
        removeAll: true,
        mails,
        events: [
          core.event(
            next,
            user,
            'WITHDRAWN',
            'withdraws the package from approval to a draft; every decision of the round is cleared',
            {
              from: p.status,
              cleared: Object.values(p.approvers).map((e) => ({
                id: e.user.id,
                name: e.user.name,
                role: e.role,
                decision: e.approved ? 'approved' : e.rejected ? 'rejected' : 'undecided',
              })),
              reason,
              signature: signatureRecord('withdraw', user, now, p.type, how.signatureMethod),
            },
          ),
        ],
      },
    );
    return toPackage(next);
  }
}
