import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';

/**
 * The signing keys of session tokens (decision 215). A key set lists keys newest first: the
 * first signs new tokens, every listed key verifies the tokens that name it by `kid` (the JWT header). A
 * rotation puts a new key in front and keeps the one before it, so tokens signed before stay valid until
 * they expire; retiring drops every key but the newest, and the tokens of the dropped keys are refused.
 *
 * The same text is the Secrets Manager secret's value (AWS) and the file under the local stack's data
 * folder: `{"keys":[{"kid":"…","secret":"…","createdAt":"…"}, …]}`. A plain string (the secret of a
 * deployment before key ids) reads as one key whose kid is derived from it, so the first rotation needs
 * no migration.
 */
export interface TokenKey {
  kid: string;
  secret: string;
  createdAt?: string;
}

export interface TokenKeySet {
  /** newest first; keys[0] signs */
  keys: TokenKey[];
}

/** the key set's file under the local stack's data folder */
export const LOCAL_KEY_SET_FILE = 'token-keys.json';

export const MIN_SECRET_LENGTH = 32;
/** the current and the previous key; a third would keep a retired key alive by accident */
export const MAX_KEYS = 2;

const KID = /^[A-Za-z0-9._-]{1,64}$/;

const keySetSchema = z.object({
  keys: z
    .array(
      z.object({
        kid: z.string().regex(KID, 'a kid is 1–64 letters, digits, dots, dashes or underscores'),
        secret: z
          .string()
          .min(MIN_SECRET_LENGTH, `a key secret has at least ${MIN_SECRET_LENGTH} characters`),
        createdAt: z.string().optional(),
      }),
    )
    .min(1, 'a key set has at least one key')
    .max(MAX_KEYS, `a key set holds at most ${MAX_KEYS} keys (current and previous)`),
});

/** The kid of a key set written as a plain string (before key ids): stable, and reveals nothing of it. */
export const legacyKid = (secret: string): string =>
  `k0-${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12)}`;

/** Whether a kid is that of a plain secret (before key ids): kid-less tokens of that time name it. */
export const isLegacyKid = (kid: string): boolean => kid.startsWith('k0-');

/** Reads a key set (JSON, or a plain secret string); throws with a reason on anything else. */
export function parseKeySet(text: string): TokenKeySet {
  const raw = text.trim();
  if (!raw.startsWith('{')) {
    if (raw.length < MIN_SECRET_LENGTH)
      throw new Error(`token secret must be at least ${MIN_SECRET_LENGTH} characters`);
    return { keys: [{ kid: legacyKid(raw), secret: raw }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('token key set is not valid JSON');
  }
  const parsed = keySetSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`token key set: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const kids = parsed.data.keys.map((k) => k.kid);
  if (new Set(kids).size !== kids.length) throw new Error('token key set: two keys share a kid');
  return parsed.data;
}

export const serializeKeySet = (set: TokenKeySet): string => `${JSON.stringify(set, null, 2)}\n`;

/** A fresh key: 48 random bytes, and a kid that says when it was made. */
export function newTokenKey(now: Date): TokenKey {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return {
    kid: `k${stamp}-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(48).toString('base64url'),
    createdAt: now.toISOString(),
  };
}

/** The set after a rotation: the new key signs, the current one only verifies; older ones are dropped. */
export function rotateKeySet(set: TokenKeySet, fresh: TokenKey): TokenKeySet {
  if (set.keys.some((k) => k.kid === fresh.kid)) throw new Error(`kid ${fresh.kid} is already in the set`);
  return { keys: [fresh, set.keys[0]!] };
}

/** The set after retiring: the newest key alone; tokens of the others are refused from then on. */
export const retireKeySet = (set: TokenKeySet): TokenKeySet => ({ keys: [set.keys[0]!] });

/** The key that signs new tokens. */
export const signingKey = (set: TokenKeySet): TokenKey => set.keys[0]!;

/** The key a token's kid names, if the set still holds it. */
export const keyFor = (set: TokenKeySet, kid: string): TokenKey | undefined =>
  set.keys.find((k) => k.kid === kid);

/** Where a key set comes from, as the token service reads it. */
export interface TokenKeySource {
  /** the key set, read again once it is older than the cache time */
  current(): Promise<TokenKeySet>;
  /** the key of `kid`; an unknown kid reads the set again first (at most once per minimum interval) */
  forKid(kid: string): Promise<TokenKey | undefined>;
}

/** A key set that never changes (a secret given directly: tests, scripts). */
export function staticKeySource(set: TokenKeySet): TokenKeySource {
  return { current: async () => set, forKid: async (kid) => keyFor(set, kid) };
}

export interface CachedKeySourceOptions {
  /** reads the key set's text (Secrets Manager, or the local file) */
  read: () => Promise<string>;
  /** milliseconds since the epoch */
  now: () => number;
  /** how long a read set is used before it is read again */
  cacheMs: number;
  /** the least time between two reads caused by unknown kids (a flood of forged kids reads rarely) */
  minReloadMs: number;
  /** told when a re-read fails (the last good set stays in use) */
  onReloadError?: (e: unknown) => void;
}

/**
 * A key set read once per cache time, so a warm function picks up a rotation without a redeploy, and read
 * at once when a token names a kid the set lacks (a token signed by a newer key than this function knows).
 * The first read must succeed (its error is thrown); a later failed read keeps the last good set, so an
 * unreachable Secrets Manager does not sign everyone out.
 */
export class CachedKeySource implements TokenKeySource {
  private set: TokenKeySet | undefined;
  /** when the set in use was read */
  private readAt = 0;
  /** when a read was last started (successful or not) */
  private attemptAt = 0;
  private loading: Promise<TokenKeySet> | undefined;

  constructor(private readonly o: CachedKeySourceOptions) {}

  private reload(): Promise<TokenKeySet> {
    this.loading ??= (async () => {
      this.attemptAt = this.o.now();
      try {
        const set = parseKeySet(await this.o.read());
        this.set = set;
        this.readAt = this.o.now();
        return set;
      } catch (e) {
        if (!this.set) throw e;
        // keep the last good set; the next try comes after the minimum interval, not on every request
        this.o.onReloadError?.(e);
        return this.set;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  private mayReload(): boolean {
    return this.o.now() - this.attemptAt >= this.o.minReloadMs;
  }

  async current(): Promise<TokenKeySet> {
    if (!this.set) return this.reload();
    if (this.o.now() - this.readAt >= this.o.cacheMs && this.mayReload()) return this.reload();
    return this.set;
  }

  async forKid(kid: string): Promise<TokenKey | undefined> {
    const hit = keyFor(await this.current(), kid);
    if (hit || !this.mayReload()) return hit;
    return keyFor(await this.reload(), kid);
  }
}
