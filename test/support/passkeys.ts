import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ApiResult, apiAt, jsonText, localDynamo, localTable } from './api';
import type { Behaviour, SoftAuthenticator } from './soft-authenticator';

/**
 * Passkey steps over HTTP for the integration tests (decision 322), against the stack at `base`, with a
 * software authenticator (soft-authenticator.ts) answering the portal's ceremonies.
 */

type Options = { challenge: string; rpId?: string; rp: { id?: string } };
interface Ceremony {
  ceremonyId: string;
  expiresAt: string;
  publicKey: Options;
}

/** The origin the SPA of the stack at `base` is served from: its APP_URL (localhost: a valid RP id). */
export const originOf = (base: string) => base.replace('127.0.0.1', 'localhost');

export function passkeySteps(base: string) {
  const call = <T = Record<string, unknown>>(
    path: string,
    method: string,
    token: string | null,
    body?: unknown,
  ) =>
    apiAt<T & { errorMessage?: string }>(base, path, {
      method,
      token,
      ...(body === undefined ? {} : { body }),
    });

  /** Settings → Passkeys → Add: the password, then the authenticator's new credential. */
  async function addPasskey(
    token: string,
    auth: SoftAuthenticator,
    name: string,
    password: string,
    how?: Behaviour,
  ) {
    const start = await call<Ceremony>('/passkeys/registration-options', 'POST', token, { password });
    if (start.status !== 200) return start;
    const response = auth.register(start.body.publicKey as never, how);
    return call<{ passkey: { id: string; name: string } }>('/passkeys', 'POST', token, {
      ceremonyId: start.body.ceremonyId,
      name,
      response,
    });
  }

  /** POST /user/login: the spec's answer, or the passkey step it owes. */
  const firstFactor = (email: string, password: string) =>
    call<{ token?: string; user?: string; secondFactor?: { ticket: string; publicKey: Options } }>(
      '/user/login',
      'POST',
      null,
      { login: email, password },
    );

  /** Both steps: the password, then an assertion of `auth` (with `how`) for the ticket. */
  async function signIn(email: string, password: string, auth: SoftAuthenticator, how?: Behaviour) {
    const first = await firstFactor(email, password);
    if (!first.body.secondFactor) throw new Error(`no second factor asked: ${JSON.stringify(first.body)}`);
    const response = auth.assert(first.body.secondFactor.publicKey, how);
    const second = await call<{ token: string; user: string }>('/user/login/passkey', 'POST', null, {
      ticket: first.body.secondFactor.ticket,
      response,
    });
    return { first, second, ticket: first.body.secondFactor.ticket, response };
  }

  /** A signature's passkey proof: the challenge of /passkeys/signature-options answered by `auth`. */
  async function signatureProof(token: string, auth: SoftAuthenticator, how?: Behaviour) {
    const c = await call<Ceremony>('/passkeys/signature-options', 'POST', token);
    if (c.status !== 200) throw new Error(`signature options: ${c.status} ${JSON.stringify(c.body)}`);
    return { ceremonyId: c.body.ceremonyId, response: auth.assert(c.body.publicKey, how) };
  }

  /** The caller's passkeys as Settings lists them. */
  async function listed(token: string) {
    const r = await call<{
      passkeys: { id: string; name: string; lastUsedAt?: string }[];
      requiredForSignatures: boolean;
    }>('/passkeys', 'GET', token);
    if (r.status !== 200) throw new Error(`list: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  return { call, addPasskey, firstFactor, signIn, signatureProof, listed };
}

/** The id of the signed-in user of a login answer. */
export const userIdOf = (r: ApiResult<{ user?: string }>) => jsonText<{ id: string }>(r.body.user).id;

/** The audit events of a user (subject USER#id), read from the shared stack's table. */
export async function userEvents(userId: string) {
  const db = await localDynamo();
  const r = await db.send(
    new QueryCommand({
      TableName: localTable('audit'),
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': `USER#${userId}` },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? [])
    .filter((i) => i.seq !== 0)
    .map((i) => ({ action: i.action as string, details: (i.details ?? {}) as Record<string, unknown> }));
}

/** A passkey item as stored (its counter), read from the shared stack's table. */
export async function storedPasskey(id: string) {
  const db = await localDynamo();
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const r = await db.send(new GetCommand({ TableName: localTable('users'), Key: { pk: `PASSKEY#${id}` } }));
  return r.Item as { counter: number; lastUsedAt?: string } | undefined;
}
