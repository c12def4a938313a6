import type { PublicUser } from '../../../shared/api/contracts/user';
import { deletionProposalView } from '../../../shared/domain/deletion-proposals';
import { emailConfirmedOf, registrationExpired } from '../../../shared/domain/identity';
import { proposalView } from '../../../shared/domain/role-grants';
import { revocationView } from '../../../shared/domain/role-revocations';
import { toPublicUser, type UserDeps } from './common';

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
    const deletionProposal = deletionProposalView(u, now);
    // a revocation one admin proposed, while it counts (same role, still granted, not lapsed): decision 357
    const revocationProposal = revocationView(u, now);
    const link = u.companyLinkRequest;
    return {
      ...toPublicUser(u),
      emailConfirmed: emailConfirmedOf(u),
      passkeys: u.passkeyIds?.length ?? 0,
      ...(roleProposal ? { roleProposal } : {}),
      ...(deletionProposal ? { deletionProposal } : {}),
      ...(revocationProposal ? { revocationProposal } : {}),
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
    u.roleProposal || u.revocationProposal || u.companyLinkRequest?.proposedBy
      ? 0
      : u.roleStatus === 'REQUESTED' || u.companyLinkRequest
        ? 1
        : 2;
  return all
    .map((u, i) => ({ u, i }))
    .sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i)
    .map(({ u }) => u);
}
