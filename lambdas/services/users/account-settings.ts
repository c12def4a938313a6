import type { AccountRequest, PublicUser } from '../../../shared/api/contracts/user';
import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { BadRequestError, ConflictError, ForbiddenError } from '../../../shared/domain/errors';
import { roleStatusOf } from '../../../shared/domain/identity';
import { minutesToWait } from '../../../shared/domain/login-throttle';
import { API_ERR, MSG } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { takeQuotaOrRefuse, toPublicUser, type UserDeps, undoOnFailure, userEvent } from './common';
import { assertAllowedDomain, countConfirmationMail, mailConfirmationLink } from './registration';
import { tellAdminsOfRequest } from './role-requests';

/** The account settings: name, email (after its confirmation link) and role (as a new request). */

/** Role requests (each mails every admin) one account may make within the window before 429. */
const ROLE_REQUESTS_PER_ACCOUNT = 3;
const ROLE_REQUEST_WINDOW_SECONDS = 15 * 60;

/**
 * Name now; a new email only once its mailed link is confirmed (the old one stays the login); a new role
 * ends the current grant at once and becomes a request for an admin. Admins keep their role.
 */
export async function updateAccount(d: UserDeps, user: UserRecord, req: AccountRequest): Promise<PublicUser> {
  const isAdmin = user.userRole === 'ADMIN';
  if (isAdmin && req.userRole !== 'ADMIN') throw new ForbiddenError(API_ERR.ownRoleUnchangeable);
  if (!isAdmin && req.userRole === 'ADMIN') throw new BadRequestError(API_ERR.adminRoleNotAllowed);
  const emailChange = req.email !== user.email;
  // an account made by a first company sign-in holds a placeholder role: its first choice is a request
  const roleChange = req.userRole !== user.userRole || roleStatusOf(user) === 'NONE';
  if (req.name === user.name && !emailChange && !roleChange) return toPublicUser(user);
  if (emailChange) {
    assertAllowedDomain(d, req.email);
    const holder = await d.users.getByEmail(req.email);
    if (holder && holder.id !== user.id) throw new ConflictError(MSG.registerConflict);
  }
  // A role change ends the current grant at once: a package waiting for this person's decision would
  // wait for someone who can no longer decide (as with deletion, decision 078).
  if (roleChange) await refuseRoleChangeOfPendingDecider(d, user);
  // Each role request mails every admin: a few per account per window, or flipping roles floods them.
  const requestKey = `role-request#${user.id}`;
  if (roleChange)
    await takeQuotaOrRefuse(d, requestKey, ROLE_REQUESTS_PER_ACCOUNT, ROLE_REQUEST_WINDOW_SECONDS, (wait) =>
      API_ERR.tooManyRoleRequests(
        ROLE_REQUESTS_PER_ACCOUNT,
        ROLE_REQUEST_WINDOW_SECONDS / 60,
        minutesToWait(wait),
      ),
    );
  if (emailChange) {
    // the same limit per address as a resent link: settings must not become a way to mail anyone at will
    await undoOnFailure(
      () => countConfirmationMail(d, req.email),
      async () => {
        if (roleChange) await d.users.returnQuota(requestKey);
      },
    );
    // mail first: if it cannot go out, nothing about the account has changed (an unused token stays behind)
    await mailConfirmationLink(d, user, req.email, 'CHANGE_EMAIL');
  }
  // a role change ends the access tokens for good, in this write (decision 334)
  const next: UserRecord = withTokenEnding(
    user,
    {
      ...user,
      name: req.name,
      pendingEmail: emailChange ? req.email : user.pendingEmail,
      userRole: req.userRole,
      roleStatus: roleChange ? 'REQUESTED' : user.roleStatus,
      // a grant proposed for the old role does not carry over to the new one
      roleProposal: roleChange ? undefined : user.roleProposal,
      updatedAt: d.clock.now().toISOString(),
      version: user.version + 1,
    },
    d.clock.now().toISOString(),
  );
  // the change and its events: one transaction (decision 283)
  const events = [
    userEvent(user, 'ACCOUNT_UPDATED', 'changes their name, email or role', {
      before: toPublicUser(user),
      after: toPublicUser(next),
    }),
  ];
  if (emailChange)
    events.push(
      userEvent(
        user,
        'EMAIL_CHANGE_REQUESTED',
        `asks to sign in with ${req.email}; a confirmation link was mailed there`,
      ),
    );
  if (roleChange)
    events.push(
      userEvent(
        user,
        'ROLE_REQUESTED',
        `gives up the role ${user.userRole} (its grant ends now) and asks for ${req.userRole}`,
        { before: user.userRole, beforeStatus: roleStatusOf(user), requested: req.userRole },
      ),
    );
  const result = await d.users.update(next, user.version, user.email, { events });
  if (result === 'emailTaken') throw new ConflictError(MSG.registerConflict);
  if (result === 'conflict')
    throw new ConflictError('Your account was changed meanwhile; reload and try again');
  if (roleChange) await tellAdminsOfRequest(d, next);
  return toPublicUser(next);
}

async function refuseRoleChangeOfPendingDecider(d: UserDeps, user: UserRecord): Promise<void> {
  if (!d.pendingDecisions) throw new Error('a role change needs the pending-decisions port');
  const names = await d.pendingDecisions.packagesWaitingFor(user.id);
  if (names.length > 0)
    throw new ConflictError(
      `You cannot change your role while ${names.map((n) => `'${n}'`).join(', ')} wait${names.length === 1 ? 's' : ''} for your decision as approver or signer. Decide first, or ask an administrator.`,
    );
}
