import { withTokenEnding } from '../../../shared/domain/access-token-endings';
import { ConflictError } from '../../../shared/domain/errors';
import type { Role } from '../../../shared/domain/roles';
import type { UserRecord } from '../../ports/user-repository';
import { hashPassword } from '../password-hasher';
import { mustUpdate, newUserRecord, type UserDeps } from './common';

/** Accounts made by scripts and the local stack, never over HTTP: seeding and `npm run admin:create`. */

/** Creates a user with any role, the admin role included; for seeding only, never exposed over HTTP. */
export async function seed(d: UserDeps, name: string, email: string, role: Role, password: string) {
  const now = d.clock.now().toISOString();
  const passwordHash = await hashPassword(password);
  return d.users.create(
    newUserRecord(
      { name, email, userRole: role, passwordHash, emailConfirmed: true, roleStatus: 'GRANTED' },
      now,
    ),
  );
}

/** Local stack only: seeded accounts of a data folder from before confirmed mailboxes (decision 070) become confirmed and granted. */
export async function confirmSeeded(d: UserDeps, emails: readonly string[]): Promise<void> {
  for (const email of emails) {
    const u = await d.users.getByEmail(email);
    if (!u || (u.roleStatus !== undefined && u.emailConfirmed !== undefined)) continue;
    await d.users.update(
      withTokenEnding(
        u,
        {
          ...u,
          roleStatus: u.roleStatus ?? 'GRANTED',
          emailConfirmed: u.emailConfirmed ?? true,
          version: u.version + 1,
        },
        d.clock.now().toISOString(),
      ),
      u.version,
      u.email,
    );
  }
}

/**
 * `npm run admin:create`: creates the admin, or promotes an existing account, confirmed and granted,
 * with a one-time password that must be replaced at first sign-in. Never exposed over HTTP.
 */
export async function createAdmin(
  d: UserDeps,
  name: string,
  emailRaw: string,
  password: string,
): Promise<'created' | 'promoted'> {
  const email = emailRaw.trim().toLowerCase();
  const now = d.clock.now().toISOString();
  const passwordHash = await hashPassword(password);
  const existing = await d.users.getByEmail(email);
  const system = { actorId: 'admin:create', actorName: 'npm run admin:create', actorRole: 'SYSTEM' };
  if (existing) {
    const next: UserRecord = {
      ...existing,
      name,
      userRole: 'ADMIN',
      roleStatus: 'GRANTED',
      emailConfirmed: true,
      pendingEmail: undefined,
      passwordHash,
      tempPasswordHash: undefined,
      tempPasswordExpiresAt: undefined,
      mustChangePassword: true,
      tokenVersion: existing.tokenVersion + 1,
      updatedAt: now,
      version: existing.version + 1,
    };
    await mustUpdate(d, next, existing, {
      events: [
        {
          subject: `USER#${existing.id}`,
          action: 'ADMIN_PROMOTED',
          meaning: `makes ${email} an administrator (was ${existing.userRole}); a one-time password was set`,
          ...system,
        },
      ],
    });
    return 'promoted';
  }
  const user = newUserRecord(
    {
      name,
      email,
      userRole: 'ADMIN',
      passwordHash,
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      mustChangePassword: true,
    },
    now,
  );
  const created = {
    subject: `USER#${user.id}`,
    action: 'ADMIN_CREATED',
    meaning: `creates the administrator ${email} with a one-time password`,
    ...system,
  };
  if (!(await d.users.create(user, undefined, { events: [created] })))
    throw new ConflictError(`${email} belonged to a deleted account and cannot be used again`);
  return 'created';
}
