import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PackageDeletionRequest, SignatureProof } from '../../shared/api/contracts/packages';
import type { AddPasskeyRequest } from '../../shared/api/contracts/passkeys';
import type {
  AccountRequest,
  ChangePasswordRequest,
  DecideRolesRequest,
  PublicUser,
  RegisterRequest,
} from '../../shared/api/contracts/user';
import type { Role } from '../../shared/domain/roles';
import type { SignatureMethod } from '../../shared/domain/signature-meanings';
import type { Clock } from '../ports/clock';
import type { Mailer } from '../ports/mailer';
import type { PendingDecisions } from '../ports/pending-decisions';
import type { UserRecord, UserRepository } from '../ports/user-repository';
import type { TokenService } from './token-service';
import { updateAccount } from './users/account-settings';
import { deleteUsers, type UserDeletionResult } from './users/admin-deletions';
import { listUsers } from './users/admin-users';
import type { UserDeps, UserServiceConfig } from './users/common';
import { decidePasskeyRemoval, signInMethodsOf } from './users/passkey-admin';
import type { PasskeyPorts } from './users/passkey-ceremony';
import {
  addPasskey,
  listPasskeys,
  removeOwnPasskey,
  renamePasskey,
  signatureOptions,
  startRegistration,
} from './users/passkeys';
import { changePassword, resetPassword } from './users/passwords';
import { confirmSeeded, createAdmin, seed } from './users/provisioning';
import { cancelRegistration, confirmEmail, register, resendConfirmation } from './users/registration';
import { decideRoles, type RoleDecisionResult } from './users/role-requests';
import { finishPasskeySignIn } from './users/second-factor';
import { authenticate, login, logout, type SessionResult, type SignInResult } from './users/sign-in';
import { confirmSignature } from './users/signature-check';

export { type Caller, hashEmailToken, toPublicUser, type UserServiceConfig } from './users/common';

/**
 * Accounts: one method per use case, each in its own file under `services/users/` (registration, sign-in,
 * passwords, account settings, role requests, admin users, provisioning); this class only wires the ports.
 */
export class UserService {
  private readonly d: UserDeps;

  constructor(
    users: UserRepository,
    tokens: TokenService,
    mailer: Mailer,
    clock: Clock,
    config: UserServiceConfig,
    /** packages waiting for a user's decision; deleting such a user is refused (decision 078) */
    pendingDecisions?: PendingDecisions,
    /** the passkey store and relying party (decision 322) */
    passkeys?: PasskeyPorts,
    /** a company reauthentication ticket as proof (decision 368); only where the stage has company sign-on */
    companyReauth?: UserDeps['companyReauth'],
  ) {
    this.d = {
      users,
      tokens,
      mailer,
      clock,
      config,
      pendingDecisions,
      passkeys,
      ...(companyReauth ? { companyReauth } : {}),
    };
  }

  /** The password; then the session, or the passkey step an account with a passkey owes (decision 322). */
  login(email: string, password: string, sourceIp: string): Promise<SignInResult> {
    return login(this.d, email, password, sourceIp);
  }

  /** The passkey step of a sign-in: the session, as after a password sign-in. */
  loginPasskey(
    ticket: string,
    response: AuthenticationResponseJSON,
    sourceIp: string,
  ): Promise<SessionResult> {
    return finishPasskeySignIn(this.d, ticket, response, sourceIp);
  }

  /** The signed-in user for a bearer token, or an UnauthorizedError (invalid, expired, revoked, deleted). */
  authenticate(token: string | null): Promise<UserRecord> {
    return authenticate(this.d, token);
  }

  /** Who signs: password, passkey or company sign-in (403 when wrong, counted by the sign-in throttle). */
  confirmSignature(user: UserRecord, proof: SignatureProof, sourceIp: string): Promise<SignatureMethod> {
    return confirmSignature(this.d, user, proof, sourceIp);
  }

  // Settings → Passkeys, and the admins' view (decisions 322, 323)
  listPasskeys(user: UserRecord) {
    return listPasskeys(this.d, user);
  }
  startPasskeyRegistration(user: UserRecord, proof: SignatureProof, sourceIp: string) {
    return startRegistration(this.d, user, proof, sourceIp);
  }
  addPasskey(user: UserRecord, req: AddPasskeyRequest) {
    return addPasskey(this.d, user, req);
  }
  renamePasskey(user: UserRecord, id: string, name: string) {
    return renamePasskey(this.d, user, id, name);
  }
  removePasskey(user: UserRecord, id: string, proof: SignatureProof, sourceIp: string) {
    return removeOwnPasskey(this.d, user, id, proof, sourceIp);
  }
  passkeySignatureOptions(user: UserRecord) {
    return signatureOptions(this.d, user);
  }
  signInMethodsOf(userId: string) {
    return signInMethodsOf(this.d, userId);
  }
  decidePasskeyRemoval(
    admin: UserRecord,
    userId: string,
    passkeyId: string,
    req: { proof: SignatureProof; reason: string },
    sourceIp: string,
  ) {
    return decidePasskeyRemoval(this.d, admin, userId, passkeyId, req, sourceIp);
  }

  logout(user: UserRecord): Promise<void> {
    return logout(this.d, user);
  }

  /** Checks the address and the source's limit before hashing; the account waits 24 h for confirmation. */
  register(req: RegisterRequest, sourceIp: string): Promise<PublicUser> {
    return register(this.d, req, sourceIp);
  }

  /**
   * Confirms the address of a mailed link (single use, 24 h) with the password chosen at registration
   * (throttled as sign-in); a registration then reaches the admins.
   */
  confirmEmail(
    token: string,
    password: string,
    sourceIp: string,
  ): Promise<{ message: string; email: string }> {
    return confirmEmail(this.d, token, password, sourceIp);
  }

  /** "I did not register": the mailed token alone cancels the registration (or email change) it confirms. */
  cancelRegistration(token: string): Promise<{ message: string; email: string }> {
    return cancelRegistration(this.d, token);
  }

  /** A new link for an unconfirmed account; the same answer whether or not the address has one. */
  resendConfirmation(email: string): Promise<void> {
    return resendConfirmation(this.d, email);
  }

  /**
   * Grants (two admins: proposes, or confirms another admin's proposal; signed with the password) or
   * refuses the requested roles of the given users, in one transaction; audited and mailed.
   */
  decideRoles(admin: UserRecord, req: DecideRolesRequest, sourceIp?: string): Promise<RoleDecisionResult> {
    return decideRoles(this.d, admin, req, sourceIp);
  }

  /** Creates a user with any role, the admin role included; for seeding only, never exposed over HTTP. */
  seed(name: string, email: string, role: Role, password: string): Promise<boolean> {
    return seed(this.d, name, email, role, password);
  }

  /** Local stack only: seeded accounts of a data folder from before confirmed mailboxes (decision 070) become confirmed and granted. */
  confirmSeeded(emails: readonly string[]): Promise<void> {
    return confirmSeeded(this.d, emails);
  }

  /** `npm run admin:create`: creates or promotes the admin with a one-time password; never over HTTP. */
  createAdmin(name: string, email: string, password: string): Promise<'created' | 'promoted'> {
    return createAdmin(this.d, name, email, password);
  }

  changePassword(user: UserRecord, req: ChangePasswordRequest, sourceIp: string): Promise<{ token: string }> {
    return changePassword(this.d, user, req, sourceIp);
  }

  /** Name now; a new email once its mailed link is confirmed; a new role becomes a request. */
  updateAccount(user: UserRecord, req: AccountRequest): Promise<PublicUser> {
    return updateAccount(this.d, user, req);
  }

  resetPassword(email: string, sourceIp: string): Promise<void> {
    return resetPassword(this.d, email, sourceIp);
  }

  listUsers(): Promise<PublicUser[]> {
    return listUsers(this.d);
  }

  /** the spec's list of ids, or signed ({ ids, password, reason }): an administrator takes two admins */
  deleteUsers(
    admin: UserRecord,
    req: PackageDeletionRequest | string[],
    sourceIp = 'unknown',
  ): Promise<UserDeletionResult> {
    return deleteUsers(this.d, admin, Array.isArray(req) ? { ids: req } : req, sourceIp);
  }
}
