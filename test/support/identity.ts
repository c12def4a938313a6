import { api, jsonText, login, mails, SEEDED } from './api';

/** The token of the newest confirmation link mailed to `email` (the local SES mailbox). */
export async function confirmationToken(email: string): Promise<string> {
  const mail = (await mails(email)).filter((m) => m.subject.includes('confirm your email')).at(-1);
  const token = /\/user\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link was mailed to ${email}`);
  return token;
}

/**
 * Opens the newest confirmation link mailed to `email` and enters the password chosen at registration (or
 * the account's password, for a new address), as the SPA's page does (issue 23).
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

/** The seeded admin grants (or refuses) the requested roles of these users. */
export async function decideRoles(
  ids: string[],
  decision: 'grant' | 'refuse' = 'grant',
  adminToken?: string,
) {
  const token = adminToken ?? (await login(SEEDED.admin));
  const r = await api('/admin/users/roles', { method: 'POST', token, body: { [decision]: ids } });
  if (r.status !== 200) throw new Error(`${decision} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}
