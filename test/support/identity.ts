import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, jsonText, login, mails, SEEDED, SEEDED_ADMIN_2 } from './api';

/** The token of the newest confirmation link mailed to `email` (the local SES mailbox). */
export async function confirmationToken(email: string): Promise<string> {
  const mail = (await mails(email)).filter((m) => m.subject.includes('confirm your email')).at(-1);
  const token = /\/user\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link was mailed to ${email}`);
  return token;
}

/**
 * Opens the newest confirmation link mailed to `email` and enters the password chosen at registration (or
 * the account's password, for a new address), as the SPA's page does.
 */
export async function confirmByMail(email: string, password: string): Promise<void> {
  const r = await api('/user/confirm-email', {
    method: 'POST',
    body: { token: await confirmationToken(email), password },
  });
  if (r.status !== 200) throw new Error(`confirming ${email} failed: ${r.status} ${JSON.stringify(r.body)}`);
}

export interface Registered {
  id: string;
  email: string;
  password: string;
}

/** Registers over HTTP and confirms the address through the mailbox; the role stays REQUESTED. */
export async function registerConfirmed(body: {
  name: string;
  email: string;
  password: string;
  userRole: string;
}): Promise<Registered> {
  const r = await api<{ user: string }>('/user/register', { method: 'POST', body });
  if (r.status !== 201)
    throw new Error(`register ${body.email} failed: ${r.status} ${JSON.stringify(r.body)}`);
  await confirmByMail(body.email, body.password);
  return { id: jsonText<{ id: string }>(r.body.user).id, email: body.email, password: body.password };
}

const adminTokens = new Map<string, string>();

/** A token of a seeded admin, signed in once per test file (each sign-in costs a slow scrypt hash). */
async function adminToken(email: string, fresh = false): Promise<string> {
  if (fresh || !adminTokens.has(email)) adminTokens.set(email, await login(email));
  return adminTokens.get(email)!;
}

/** One POST /admin/users/roles by a seeded admin (signed in again once if its cached session ended). */
async function rolesCall(email: string, body: Record<string, unknown>) {
  let r = await api<{ outcomes: Record<string, string> }>('/admin/users/roles', {
    method: 'POST',
    token: await adminToken(email),
    body,
  });
  if (r.status === 401)
    r = await api('/admin/users/roles', { method: 'POST', token: await adminToken(email, true), body });
  return r;
}

/**
 * The two-admin grant (decision 180): one admin proposes (the seeded admin, or the one whose
 * token is given), a second confirms (the seeded admin-2, or `confirmer`); both sign with the seeded
 * password. Throws unless every id was first PROPOSED, then GRANTED. Returns the confirming answer.
 */
export async function grantRoles(ids: string[], opts: { proposer?: string; confirmer?: string } = {}) {
  const body = { grant: ids, password: SEED_PASSWORD };
  const proposed = opts.proposer
    ? await api<{ outcomes: Record<string, string> }>('/admin/users/roles', {
        method: 'POST',
        token: opts.proposer,
        body,
      })
    : await rolesCall(SEEDED.admin, body);
  expectOutcomes(proposed, ids, 'PROPOSED');
  const confirmed = opts.confirmer
    ? await api<{ outcomes: Record<string, string> }>('/admin/users/roles', {
        method: 'POST',
        token: opts.confirmer,
        body,
      })
    : await rolesCall(SEEDED_ADMIN_2, body);
  expectOutcomes(confirmed, ids, 'GRANTED');
  return confirmed;
}

function expectOutcomes(
  r: { status: number; body: { outcomes?: Record<string, string> } },
  ids: string[],
  outcome: string,
) {
  const wrong = ids.filter((id) => r.body.outcomes?.[id] !== outcome);
  if (r.status !== 200 || wrong.length > 0)
    throw new Error(`grant did not end ${outcome}: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * The seeded admins grant (two admins: `adminToken`'s or the seeded admin proposes, admin-2 confirms) or
 * the seeded admin (or `adminToken`'s) refuses the requested roles of these users.
 */
export async function decideRoles(
  ids: string[],
  decision: 'grant' | 'refuse' = 'grant',
  adminToken?: string,
) {
  if (decision === 'grant') return grantRoles(ids, adminToken ? { proposer: adminToken } : {});
  const r = adminToken
    ? await api('/admin/users/roles', { method: 'POST', token: adminToken, body: { refuse: ids } })
    : await rolesCall(SEEDED.admin, { refuse: ids });
  if (r.status !== 200) throw new Error(`refuse failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}
