import { proofOf } from '../../../shared/api/contracts/packages';
import { assertNever } from '../../../shared/domain/assert-never';
import { COMPANY_ERR } from '../../../shared/domain/company-sign-on';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { SIGNATURE_PASSWORD_REQUIRED } from '../../../shared/domain/signature-meanings';
import type { UserRecord } from '../../ports/user-repository';
import { adminEvent, getAllOrNotFound, mustUpdate } from '../users/common';
import { confirmSignature } from '../users/signature-check';
import type { CompanySignOnDeps } from './deps';
import { linkAccount } from './linking';
import { confirmReauthTicket } from './reauth-ticket';

/** What the admins decide about company identities (POST /admin/users/company-links). */
export interface CompanyLinkDecision {
  ids: string[];
  /** LINK: propose, or confirm another admin's proposal; REFUSE a request; UNLINK a linked identity */
  decision: 'LINK' | 'REFUSE' | 'UNLINK';
  password?: string;
  reauthTicket?: string;
}

export type CompanyLinkOutcome = 'PROPOSED' | 'LINKED' | 'REFUSED' | 'UNLINKED';

/**
 * Two admins link (one proposes, a second, different one confirms); a refusal or an unlink takes effect
 * at once, as with roles. Linking and unlinking are signed (password, or a fresh company sign-in's ticket);
 * every input is checked before the signature, the signature before any change.
 */
export async function decideCompanyLinks(
  d: CompanySignOnDeps,
  admin: UserRecord,
  req: CompanyLinkDecision,
  sourceIp: string,
): Promise<Record<string, CompanyLinkOutcome>> {
  const { users } = await getAllOrNotFound(d, req.ids);
  for (const u of users) {
    if (u.id === admin.id) throw new ForbiddenError(COMPANY_ERR.ownLink(u.email));
    if (req.decision === 'UNLINK' ? !u.companyIdentity : !u.companyLinkRequest)
      throw new ConflictError(
        req.decision === 'UNLINK' ? COMPANY_ERR.notLinked(u.email) : COMPANY_ERR.notRequested(u.email),
      );
    if (req.decision === 'LINK' && u.companyLinkRequest?.proposal?.byId === admin.id)
      throw new ForbiddenError(COMPANY_ERR.ownProposal(u.email));
  }
  if (req.decision !== 'REFUSE') {
    const proof = proofOf(req);
    if (Object.keys(proof).length === 0) throw new BadRequestError(SIGNATURE_PASSWORD_REQUIRED);
    await confirmSignature(
      { ...d, companyReauth: (user, ticket) => confirmReauthTicket(d, user, ticket) },
      admin,
      proof,
      sourceIp,
    );
  }
  const outcomes: Record<string, CompanyLinkOutcome> = {};
  for (const u of users) outcomes[u.id] = await decideOne(d, admin, u, req.decision);
  return outcomes;
}

async function decideOne(
  d: CompanySignOnDeps,
  admin: UserRecord,
  u: UserRecord,
  decision: CompanyLinkDecision['decision'],
): Promise<CompanyLinkOutcome> {
  const at = d.clock.now().toISOString();
  const request = u.companyLinkRequest;
  const facts = (x: { issuer: string; subject: string; email: string }) => ({
    userId: u.id,
    email: u.email,
    issuer: x.issuer,
    subject: x.subject,
    providerEmail: x.email,
  });
  switch (decision) {
    case 'LINK': {
      if (!request) throw new ConflictError(COMPANY_ERR.notRequested(u.email));
      if (request.proposal) {
        // the link and its event commit together (decision 283)
        await linkAccount(d, u, request, 'ADMINS', [
          adminEvent(
            admin,
            u,
            'COMPANY_LINK_CONFIRMED',
            'confirms the link of this company identity, proposed by another administrator: it signs in as the account from now on',
            { ...facts(request), proposedBy: request.proposal.byId },
          ),
        ]);
        return 'LINKED';
      }
      const next: UserRecord = {
        ...u,
        companyLinkRequest: {
          ...request,
          proposal: { byId: admin.id, byName: admin.name, byEmail: admin.email, at },
        },
        updatedAt: at,
        version: u.version + 1,
      };
      await mustUpdate(d, next, u, {
        events: [
          adminEvent(
            admin,
            u,
            'COMPANY_LINK_PROPOSED',
            'proposes linking this company identity to the account: it takes effect once a second administrator confirms',
            facts(request),
          ),
        ],
      });
      return 'PROPOSED';
    }
    case 'REFUSE': {
      if (!request) throw new ConflictError(COMPANY_ERR.notRequested(u.email));
      const { companyLinkRequest: _gone, ...rest } = u;
      await mustUpdate(d, { ...rest, updatedAt: at, version: u.version + 1 }, u, {
        events: [
          adminEvent(
            admin,
            u,
            'COMPANY_LINK_REFUSED',
            'refuses linking this company identity to the account',
            facts(request),
          ),
        ],
      });
      return 'REFUSED';
    }
    case 'UNLINK': {
      const linked = u.companyIdentity;
      if (!linked) throw new ConflictError(COMPANY_ERR.notLinked(u.email));
      const { companyIdentity: _gone, ...rest } = u;
      // the account's sessions end with the link: they were opened by that identity
      const next: UserRecord = {
        ...rest,
        tokenVersion: u.tokenVersion + 1,
        updatedAt: at,
        version: u.version + 1,
      };
      const unlinked = adminEvent(
        admin,
        u,
        'COMPANY_IDENTITY_UNLINKED',
        'removes the link of this company identity: it no longer signs in as the account',
        facts(linked),
      );
      if (
        !(await d.identities.unlink(linked.issuer, linked.subject, next, u.version, { events: [unlinked] }))
      )
        throw new ConflictError('The account was changed meanwhile; reload and try again');
      return 'UNLINKED';
    }
    default:
      return assertNever(decision);
  }
}
