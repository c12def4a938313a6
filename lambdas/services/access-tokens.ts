import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Route } from '../../shared/api/routes';
import { type TokenEnded, tokenEndedBy, tokenEndedText } from '../../shared/domain/access-token-endings';
import {
  ACCESS_TOKEN_CALLS_PER_WINDOW,
  ACCESS_TOKEN_ERR,
  ACCESS_TOKEN_WINDOW_SECONDS,
  ACCESS_TOKENS_PER_USER,
  type AccessTokenView,
  accessTokenIdOf,
  type CreateAccessToken,
  formatAccessToken,
  nameViaToken,
  SCOPE_ROLES,
  tokenState,
} from '../../shared/domain/access-tokens';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../shared/domain/errors';
import { roleLabel } from '../../shared/domain/roles';
import { API_ERR } from '../../shared/messages';
import type { AccessTokenRecord, AccessTokenRepository } from '../ports/access-token-repository';
import type { Clock } from '../ports/clock';
import type { UserRecord, UserRepository } from '../ports/user-repository';
import { adminEvent } from './users/common';

export interface AccessTokenDeps {
  tokens: AccessTokenRepository;
  users: Pick<UserRepository, 'getById' | 'list' | 'takeQuota'>;
  clock: Clock;
}

/** The user a token call acts as: the owner, named with the token so every audit event shows it (decision 256). */
export type TokenUser = UserRecord & { viaToken: { id: string; name: string } };

const DAY_MS = 24 * 60 * 60 * 1000;
const sha256 = (s: string) => createHash('sha256').update(s).digest();

const OWNER_GONE: TokenEnded = { cause: 'OWNER_DELETED' };
const ended = (why: string) => new UnauthorizedError(`Token invalid: ${why}`);

/** Access tokens: made, listed and revoked by their owner (admins: every one), checked per call. */
export class AccessTokenService {
  constructor(private readonly d: AccessTokenDeps) {}

  async create(
    user: UserRecord,
    req: CreateAccessToken,
  ): Promise<{ token: string; accessToken: AccessTokenView }> {
    for (const scope of req.scopes)
      if (!SCOPE_ROLES[scope].includes(user.userRole))
        throw new BadRequestError(ACCESS_TOKEN_ERR.scopeNotForRole(scope, roleLabel(user.userRole)));
    const now = this.d.clock.now();
    const live = (await this.d.tokens.listByUser(user.id)).filter(
      (t) => this.state(t, user, now) === 'ACTIVE',
    );
    if (live.length >= ACCESS_TOKENS_PER_USER) throw new BadRequestError(ACCESS_TOKEN_ERR.tooMany);
    const id = randomBytes(8).toString('hex');
    const token = formatAccessToken(id, randomBytes(32).toString('base64url'));
    const record: AccessTokenRecord = {
      id,
      userId: user.id,
      userRole: user.userRole,
      // bound to the owner's epoch: a later role change, refusal or password change ends it for good
      ownerEpoch: user.tokenEpoch ?? 0,
      name: req.name,
      scopes: [...req.scopes],
      secretHash: sha256(token).toString('hex'),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + req.expiresInDays * DAY_MS).toISOString(),
    };
    await this.d.tokens.create(record, {
      events: [
        adminEvent(user, user, 'ACCESS_TOKEN_CREATED', `creates the access token '${record.name}'`, {
          tokenId: id,
          scopes: record.scopes,
          expiresAt: record.expiresAt,
        }),
      ],
    });
    return { token, accessToken: this.view(record, user, now) };
  }

  /** The caller's tokens; an admin's answer holds every token. Newest first. */
  async list(user: UserRecord): Promise<AccessTokenView[]> {
    const admin = user.userRole === 'ADMIN';
    const records = admin ? await this.d.tokens.listAll() : await this.d.tokens.listByUser(user.id);
    const owners = new Map<string, UserRecord>([[user.id, user]]);
    if (admin) for (const u of await this.d.users.list()) owners.set(u.id, u);
    const now = this.d.clock.now();
    return records
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((r) => this.view(r, owners.get(r.userId) ?? null, now));
  }

  /** Revokes a token at once: its owner or an admin. Revoking a revoked token answers it as it is. */
  async revoke(user: UserRecord, id: string): Promise<AccessTokenView> {
    const t = await this.d.tokens.get(id);
    const admin = user.userRole === 'ADMIN';
    // another person's token is "not found" to a non-admin: its existence is not theirs to learn
    if (!t || (!admin && t.userId !== user.id)) throw new NotFoundError(ACCESS_TOKEN_ERR.notFound);
    const now = this.d.clock.now();
    if (!t.revokedAt) {
      // revoked meanwhile by someone else: answered as it is, recorded by them
      const revoked = adminEvent(
        user,
        { id: t.userId },
        'ACCESS_TOKEN_REVOKED',
        `revokes the access token '${t.name}'`,
        {
          tokenId: id,
        },
      );
      await this.d.tokens.revoke(id, now.toISOString(), user.id, { events: [revoked] });
    }
    const after = (await this.d.tokens.get(id)) ?? t;
    const owner = t.userId === user.id ? user : await this.d.users.getById(t.userId);
    return this.view(after, owner, now);
  }

  /**
   * The user a bearer access token acts as on `route`, or the refusal: 401 for an unknown, wrong, expired
   * or revoked token and for a token that ended with its owner (deleted; role changed, refused or revoked;
   * password reset or changed: for good, decision 334; checked against the user row on every call, so it
   * takes effect at once); 403 for a row no token may
   * call (a person must sign) or a scope the token lacks; 429 over the token's quota.
   */
  async authenticate(bearer: string, route: Pick<Route, 'id' | 'method' | 'tokenScope'>): Promise<TokenUser> {
    const id = accessTokenIdOf(bearer);
    if (!id) throw new UnauthorizedError(API_ERR.invalidToken);
    const t = await this.d.tokens.get(id);
    const given = sha256(bearer);
    if (!t || !timingSafeEqual(given, Buffer.from(t.secretHash, 'hex')))
      throw new UnauthorizedError(API_ERR.invalidToken);
    const now = this.d.clock.now();
    const state = tokenState(t, now);
    if (state === 'REVOKED') throw ended('this access token was revoked');
    if (state === 'EXPIRED') throw ended('this access token expired');
    const user = await this.d.users.getById(t.userId);
    const endedBy = tokenEndedBy(t, user);
    if (!user || endedBy) throw ended(`this access token ended: ${tokenEndedText(endedBy ?? OWNER_GONE)}`);
    if (!route.tokenScope) throw new ForbiddenError(ACCESS_TOKEN_ERR.personMustSign);
    if (!t.scopes.includes(route.tokenScope))
      throw new ForbiddenError(ACCESS_TOKEN_ERR.missingScope(route.tokenScope));
    if (route.method !== 'GET') {
      const quota = await this.d.users.takeQuota(
        `access-token#${id}`,
        ACCESS_TOKEN_CALLS_PER_WINDOW,
        ACCESS_TOKEN_WINDOW_SECONDS,
        now,
      );
      if (!quota.ok)
        throw new TooManyRequestsError(
          ACCESS_TOKEN_ERR.tooManyCalls(quota.retryAfterSeconds),
          quota.retryAfterSeconds,
        );
      await this.d.tokens.touch(id, now.toISOString());
    }
    return { ...user, name: nameViaToken(user.name, t.name), viaToken: { id, name: t.name } };
  }

  /** The state of a token with its owner: ENDED once the owner's role, account or password ended it. */
  private state(r: AccessTokenRecord, owner: UserRecord | null, now: Date): AccessTokenView['state'] {
    const own = tokenState(r, now);
    return own === 'ACTIVE' && tokenEndedBy(r, owner) ? 'ENDED' : own;
  }

  /** `owner`: null when the account was deleted */
  private view(r: AccessTokenRecord, owner: UserRecord | null, now: Date): AccessTokenView {
    const state = this.state(r, owner, now);
    const endedBy = state === 'ENDED' ? tokenEndedBy(r, owner) : null;
    return {
      id: r.id,
      name: r.name,
      scopes: r.scopes,
      owner: owner
        ? { id: owner.id, name: owner.name, email: owner.email }
        : { id: r.userId, name: '(deleted user)', email: '' },
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
      ...(r.lastUsedAt ? { lastUsedAt: r.lastUsedAt } : {}),
      ...(r.revokedAt ? { revokedAt: r.revokedAt } : {}),
      state,
      ...(endedBy ? { ended: { ...endedBy, text: tokenEndedText(endedBy) } } : {}),
    };
  }
}
