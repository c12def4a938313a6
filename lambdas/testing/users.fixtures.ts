import type { Role } from '../../shared/domain/roles';
import { MemoryAuditLog } from '../adapters/memory/audit-log';
import { MemoryPasskeyRepository } from '../adapters/memory/passkey-repository';
import { MemoryPendingDecisions } from '../adapters/memory/pending-decisions';
import { MemoryUserRepository } from '../adapters/memory/user-repository';
import type { StoredAuditEvent } from '../ports/audit-log';
import type { Clock } from '../ports/clock';
import type { Mail, Mailer } from '../ports/mailer';
import type { UserRecord } from '../ports/user-repository';
import { hashPassword } from '../services/password-hasher';
import { TokenService } from '../services/token-service';
import { UserService } from '../services/user-service';
import type { UserServiceConfig } from '../services/users/common';
import type { SessionResult, SignInResult } from '../services/users/sign-in';
import type { WebAuthnConfig } from '../services/users/webauthn';

/**
 * The user service over memory adapters, for the unit tests of the user rules. The audit log, clock and
 * mailer here are private to these tests (the shared memory adapters of those ports are another
 * helper's); each keeps what the rules did so a test can assert it.
 */

export class TestClock implements Clock {
  private t = Date.parse('2026-11-21T12:00:00.000Z');
  now(): Date {
    return new Date(this.t);
  }
  advanceSeconds(s: number): void {
    this.t += s * 1000;
  }
}

export class TestMailer implements Mailer {
  readonly sent: Mail[] = [];
  failing = false;
  async send(mail: Mail): Promise<void> {
    if (this.failing) throw new Error('SES is down');
    this.sent.push(mail);
  }
  /** the mails sent to `to` */
  to(to: string): Mail[] {
    return this.sent.filter((m) => m.to === to);
  }
}

/** The memory audit log the user repository records its events in, with views the tests read. */
export class TestAudit extends MemoryAuditLog {
  /** every event recorded, in order per subject */
  get events(): StoredAuditEvent[] {
    return this.all();
  }
  actions(): string[] {
    return this.events.map((e) => e.action);
  }
}

export const PASSWORD = 'Right-Password-1';
/** password hashes cost real time (scrypt at production cost), more on a busy machine: no speed is asserted */
export const SCRYPT_TIMEOUT_MS = 60_000;
/** hashed once: scrypt at production cost takes a while */
const passwordHash = await hashPassword(PASSWORD);

/** The session of a sign-in that owed no second factor (a test's account without a passkey). */
export function session(r: SignInResult): SessionResult {
  if ('secondFactor' in r) throw new Error('the sign-in asks for a passkey: the account holds one');
  return r;
}

/** The relying party of the unit tests' passkeys (decision 322). */
export const TEST_WEBAUTHN: WebAuthnConfig = {
  rpId: 'portal.example',
  rpName: 'Firmware Release Portal',
  origins: ['https://portal.example'],
  required: false,
};

export function makeUsers(config: Partial<UserServiceConfig> = {}, webauthn: Partial<WebAuthnConfig> = {}) {
  const clock = new TestClock();
  const audit = new TestAudit(clock);
  const users = new MemoryUserRepository(clock, audit);
  const passkeys = new MemoryPasskeyRepository(users);
  const mailer = new TestMailer();
  const pending = new MemoryPendingDecisions();
  const tokens = new TokenService('t'.repeat(40), 3600);
  const service = new UserService(
    users,
    tokens,
    mailer,
    clock,
    {
      tempPasswordMinutes: 30,
      maxFailuresPerSource: 50,
      appUrl: 'https://portal.example',
      allowedEmailDomains: [],
      ...config,
    },
    pending,
    { store: passkeys, webauthn: { ...TEST_WEBAUTHN, ...webauthn } },
  );
  let n = 0;
  /** stores a confirmed account holding `role` (granted unless said otherwise), password PASSWORD */
  async function account(role: Role, fields: Partial<UserRecord> = {}): Promise<UserRecord> {
    n += 1;
    const now = clock.now().toISOString();
    const u: UserRecord = {
      id: `u${n}`,
      name: `Person ${n}`,
      email: `person${n}@medical.example`,
      userRole: role,
      passwordHash,
      tokenVersion: 1,
      emailConfirmed: true,
      roleStatus: 'GRANTED',
      createdAt: now,
      updatedAt: now,
      version: 1,
      ...fields,
    };
    if (!(await users.create(u))) throw new Error(`could not store ${u.email}`);
    return u;
  }
  /** the stored record of `u` now */
  const current = async (u: UserRecord) => (await users.getById(u.id)) as UserRecord;
  return { service, users, passkeys, mailer, audit, clock, pending, tokens, account, current };
}

/** The link of a confirmation mail's token, and the token. */
export function tokenOf(mail: Mail): string {
  const m = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no confirmation link in: ${mail.text}`);
  return m[1];
}
