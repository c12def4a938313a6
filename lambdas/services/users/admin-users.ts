import type { PublicUser } from '../../../shared/api/contracts/user';
import { ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { emailConfirmedOf, holdsAuthority, registrationExpired } from '../../../shared/domain/identity';
import { proposalView } from '../../../shared/domain/role-grants';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, getAllOrNotFound, toPublicUser, type UserDeps } from './common';

/** The administrators' list of users, and deleting users. */

/**
 * Every user; what waits for an admin first (grant proposals, then role requests), so none sits unseen on
 * a later page of the admin screen.
 */
export async function listUsers(d: UserDeps): Promise<PublicUser[]> {
  const now = d.clock.now();
  // an unconfirmed registration past its 24 hours is gone, though TTL may not have removed it yet
  const live = (await d.users.list()).filter((u) => !registrationExpired(u, now));
  const all: PublicUser[] = live.map((u) => {
    // a grant one admin proposed, while it counts (same role, not lapsed): decision 180
    const roleProposal = proposalView(u, now);
    const link = u.companyLinkRequest;
    return {
      ...toPublicUser(u),
      emailConfirmed: emailConfirmedOf(u),
      passkeys: u.passkeyIds?.length ?? 0,
      ...(roleProposal ? { roleProposal } : {}),
      // a company identity waiting for two admins to link it (decision 315)
      ...(link
        ? {
            companyLinkRequest: {
              email: link.email,
              subject: link.subject,
              requestedAt: link.requestedAt,
              ...(link.proposal
                ? {
                    proposedBy: {
                      id: link.proposal.byId,
                      name: link.proposal.byName,
                      email: link.proposal.byEmail,
                    },
                  }
                : {}),
            },
          }
        : {}),
    };
  });
  const rank = (u: PublicUser) =>
    u.roleProposal || u.companyLinkRequest?.proposedBy
      ? 0
      : u.roleStatus === 'REQUESTED' || u.companyLinkRequest
        ? 1
        : 2;
  return all
    .map((u, i) => ({ u, i }))
    .sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i)
    .map(({ u }) => u);
}

export async function deleteUsers(d: UserDeps, admin: UserRecord, ids: string[]): Promise<void> {
  if (new Set(ids).has(admin.id)) throw new ForbiddenError('You cannot delete your own account');
  const { unique, users: found } = await getAllOrNotFound(d, ids);
  await refuseDeletingPendingDeciders(d, found);
  if (found.some((u) => u.userRole === 'ADMIN')) {
    const remaining = (await d.users.listByRole('ADMIN')).filter(
      (a) => !unique.includes(a.id) && holdsAuthority(a),
    );
    if (remaining.length === 0) throw new ConflictError(API_ERR.lastAdmin);
  }
  const at = d.clock.now().toISOString();
  // each account with its event (one transaction each, decision 283); one deleted meanwhile by another
  // admin was recorded by them
  for (const u of found)
    await d.users.delete(u, at, {
      events: [
        adminEvent(
          admin,
          u,
          'USER_DELETED',
          `deletes the account of ${u.email}; the email cannot register again`,
        ),
      ],
    });
}

/** No package may be left waiting for someone who no longer exists: such users are kept (409). */
async function refuseDeletingPendingDeciders(d: UserDeps, users: UserRecord[]): Promise<void> {
  if (!d.pendingDecisions) throw new Error('user deletion needs the pending-decisions port');
  const pending = d.pendingDecisions;
  const waiting = await Promise.all(
    users.map(async (u) => ({ u, names: await pending.packagesWaitingFor(u.id) })),
  );
  const blocked = waiting.filter((w) => w.names.length > 0);
  if (blocked.length > 0)
    throw new ConflictError(
      `Cannot delete: ${blocked
        .map(
          (w) =>
            `${w.u.email} is awaited as approver or signer of ${w.names.map((n) => `'${n}'`).join(', ')}`,
        )
        .join('; ')}. Delete those packages or let them be decided first.`,
    );
}
