import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Access, Route } from '../../shared/api/routes';
import { ForbiddenError } from '../../shared/domain/errors';
import { holdsAuthority, missingAuthorityMessage } from '../../shared/domain/identity';
import { API_ERR } from '../../shared/messages';
import type { UserRecord } from '../ports/user-repository';
import type { ApiEvent } from './api-event';
import { logUser } from './logging';

export function bearerToken(headers: APIGatewayProxyEvent['headers']): string | null {
  const value = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  if (!value) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return m?.[1] ?? null;
}

/** What an account with a one-time password (npm run admin:create) may call before choosing its own. */
const BEFORE_NEW_PASSWORD = new Set(['auth', 'logout', 'changePassword']);

/**
 * The user a bearer token (or its absence) stands for; throws the typed error of a missing, expired or
 * ended session. The composition root passes the identity service's check (composition-http.ts).
 */
export type Authenticate = (
  token: string | null,
  /** the row called: an access token is checked against its `tokenScope` */
  route: Pick<Route, 'id' | 'method' | 'tokenScope'>,
) => Promise<UserRecord>;

/**
 * The route table's gate: public rows pass; others need a live token and, if the row names roles, one of
 * them. Deny by default: every signed-in row also needs the role granted by an admin on a
 * confirmed account, except the rows marked `ungranted` (the account's own identity and settings). So an
 * account whose role waits or was refused reads nothing: no package, resource, DCC, list or download.
 */
export function authorize(
  access: Access,
  routeId: string | undefined,
  authenticate: Authenticate,
  ungranted = false,
  row: Pick<Route, 'id' | 'method' | 'tokenScope'> = { id: routeId ?? '', method: 'GET' },
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      if (access === 'public') return;
      const event = request.event as ApiEvent;
      const user = await authenticate(bearerToken(event.headers), row);
      if (user.mustChangePassword && !BEFORE_NEW_PASSWORD.has(routeId ?? ''))
        throw new ForbiddenError(API_ERR.mustChangePassword);
      if (access !== 'signedIn' && !access.includes(user.userRole))
        throw new ForbiddenError(API_ERR.forbidden);
      if (!ungranted && !holdsAuthority(user)) throw new ForbiddenError(missingAuthorityMessage(user));
      event.user = user;
      logUser(user.id);
    },
  };
}
