import { randomBytes } from 'node:crypto';
import type { ChangePasswordRequest } from '../../../shared/api/contracts/user';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import { registrationExpired } from '../../../shared/domain/identity';
import { DEFAULT_RESET_LIMITS, minutesToWait } from '../../../shared/domain/login-throttle';
import { API_ERR } from '../../../shared/messages';
import type { UserRecord } from '../../ports/user-repository';
import { hashPassword, verifyPassword } from '../password-hasher';
import { mustUpdate, takeQuotaOrRefuse, type UserDeps, undoOnFailure, userEvent } from './common';
import { temporaryPasswordMail } from './mails';
import { forgiveSource, recordSignInFailure, refuseWhileThrottled } from './sign-in';

/** Changing the password, and the mailed temporary password of a reset. */

export async function changePassword(
  d: UserDeps,
  user: UserRecord,
  req: ChangePasswordRequest,
  sourceIp: string,
): Promise<{ token: string }> {
  // a stolen session must not become a way to guess the password: the same limits as sign-in
  await refuseWhileThrottled(d, user.email, sourceIp, d.clock.now());
  if (!(await verifyPassword(req.oldPassword, user.passwordHash))) {
    await recordSignInFailure(d, user.email, sourceIp);
    throw new ForbiddenError(API_ERR.oldPasswordWrong, { authError: API_ERR.oldPasswordWrong });
  }
  await forgiveSource(d, user.email, sourceIp);
  const now = d.clock.now();
  const next: UserRecord = {
    ...user,
    passwordHash: await hashPassword(req.newPassword),
    tempPasswordHash: undefined,
    tempPasswordExpiresAt: undefined,
    mustChangePassword: undefined,
    tokenVersion: user.tokenVersion + 1,
    updatedAt: now.toISOString(),
    version: user.version + 1,
  };
  await mustUpdate(d, next, user, {
    events: [userEvent(user, 'PASSWORD_CHANGED', 'changes their password; earlier sessions end')],
  });
  // Every earlier token is revoked; the caller gets a fresh one so this session carries on.
  return { token: await d.tokens.issue({ sub: user.id, tv: next.tokenVersion }, now) };
}

export async function resetPassword(d: UserDeps, emailRaw: string, sourceIp: string): Promise<void> {
  const email = emailRaw.trim().toLowerCase();
  const limits = d.config.resetLimits ?? DEFAULT_RESET_LIMITS;
  const windowMinutes = Math.round(limits.windowSeconds / 60);
  // every request counts for its source, known address or not (it also bounds probing for addresses)
  await takeQuotaOrRefuse(d, `reset-source#${sourceIp}`, limits.perSource, limits.windowSeconds, (wait) =>
    API_ERR.tooManyResetsFromSource(minutesToWait(wait)),
  );
  const found = await d.users.getByEmail(email);
  // an unconfirmed registration whose 24 hours passed is absent
  // an account made by a company sign-in has no portal password, and a mailed one would let a leaver the
  // company disabled back in (decision 317): it answers as an unknown address
  const user =
    found && !registrationExpired(found, d.clock.now()) && found.passwordHash !== '' ? found : null;
  if (!user) throw new NotFoundError(API_ERR.userNotFound, { authError: API_ERR.userNotFound });
  const addressKey = `reset#${email}`;
  await takeQuotaOrRefuse(d, addressKey, limits.perAddress, limits.windowSeconds, (wait) =>
    API_ERR.tooManyResetsForAddress(limits.perAddress, windowMinutes, minutesToWait(wait)),
  );
  await issueTemporaryPassword(d, user, () => d.users.returnQuota(addressKey));
}

/**
 * The mail first, then the temporary password with its event (one transaction, decision 283): a mail that
 * does not go out changes nothing (an earlier temporary password the owner did receive keeps working), so
 * nothing has to be undone. A crash after the mail leaves a mailed password that was never stored: it does
 * not sign in, and asking again mails a new one (decision 285). A lost race after the mail (another reset
 * or a sign-in wrote the account meanwhile) stores the mailed password on the fresh account instead: a
 * password the owner was sent must work, whichever request wrote last.
 */
async function issueTemporaryPassword(
  d: UserDeps,
  user: UserRecord,
  giveQuotaBack: () => Promise<unknown>,
): Promise<void> {
  const now = d.clock.now();
  const temp = randomBytes(12).toString('base64url');
  const tempPasswordHash = await hashPassword(temp);
  const tempPasswordExpiresAt = new Date(now.getTime() + d.config.tempPasswordMinutes * 60_000).toISOString();
  // no mail went out: it does not count against the address
  await undoOnFailure(
    () => d.mailer.send(temporaryPasswordMail(user, temp, d.config.tempPasswordMinutes, d.config.appUrl)),
    giveQuotaBack,
  );
  let current: UserRecord | null = user;
  for (let attempt = 0; current && attempt < STORE_ATTEMPTS; attempt++) {
    const next: UserRecord = {
      ...current,
      tempPasswordHash,
      tempPasswordExpiresAt,
      updatedAt: now.toISOString(),
      version: current.version + 1,
    };
    const event = userEvent(
      current,
      'PASSWORD_RESET_REQUESTED',
      'a temporary password is mailed to the account address',
    );
    if ((await d.users.update(next, current.version, current.email, { events: [event] })) === 'ok') return;
    current = await d.users.getById(user.id);
    // a deleted account or a changed address: the mailed password is not stored (it does not sign in)
    if (current && current.email !== user.email) current = null;
  }
  throw new ConflictError('Your account was changed meanwhile; reload and try again');
}

/** Writes of one account in a row that a mailed temporary password outlasts before it answers 409. */
const STORE_ATTEMPTS = 5;
