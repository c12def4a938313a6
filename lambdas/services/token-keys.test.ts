import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  CachedKeySource,
  keyFor,
  legacyKid,
  newTokenKey,
  parseKeySet,
  retireKeySet,
  rotateKeySet,
  serializeKeySet,
  signingKey,
  type TokenKeySet,
} from './token-keys';
import { TokenService } from './token-service';

const NOW = new Date('2026-11-27T07:00:00Z');
const key = (kid: string) => ({ kid, secret: `${kid}-`.padEnd(40, 's') });

describe('token key sets', () => {
  it('reads a plain secret as one key whose kid is derived from it (a deployment before key ids)', () => {
    const plain = 'p'.repeat(64);
    const set = parseKeySet(`${plain}\n`);
    expect(set.keys).toEqual([{ kid: legacyKid(plain), secret: plain }]);
    expect(legacyKid(plain)).not.toContain('ppp');
    expect(parseKeySet(plain).keys[0]!.kid).toBe(set.keys[0]!.kid);
  });

  it('round-trips a JSON set, newest first', () => {
    const set: TokenKeySet = { keys: [key('new'), key('old')] };
    expect(parseKeySet(serializeKeySet(set))).toEqual(set);
    expect(signingKey(set).kid).toBe('new');
    expect(keyFor(set, 'old')?.kid).toBe('old');
    expect(keyFor(set, 'gone')).toBeUndefined();
  });

  it.each([
    ['a short plain secret', 'short'],
    ['broken JSON', '{"keys": ['],
    ['no keys', '{"keys": []}'],
    ['three keys', JSON.stringify({ keys: [key('a'), key('b'), key('c')] })],
    ['a short key secret', JSON.stringify({ keys: [{ kid: 'a', secret: 'short' }] })],
    ['a kid with a slash', JSON.stringify({ keys: [{ kid: 'a/b', secret: 's'.repeat(40) }] })],
    ['two keys with one kid', JSON.stringify({ keys: [key('a'), key('a')] })],
  ])('refuses %s', (_what, text) => {
    expect(() => parseKeySet(text)).toThrow();
  });

  it('rotates: the new key signs, the current one stays to verify, an older one is dropped', () => {
    const one = { keys: [key('k1')] };
    const two = rotateKeySet(one, key('k2'));
    expect(two.keys.map((k) => k.kid)).toEqual(['k2', 'k1']);
    expect(rotateKeySet(two, key('k3')).keys.map((k) => k.kid)).toEqual(['k3', 'k2']);
    expect(() => rotateKeySet(two, key('k1'))).toThrow(/already/);
  });

  it('retires every key but the newest', () => {
    expect(retireKeySet({ keys: [key('k2'), key('k1')] }).keys.map((k) => k.kid)).toEqual(['k2']);
  });

  it('makes fresh keys with distinct kids that say when they were made', () => {
    const a = newTokenKey(NOW);
    const b = newTokenKey(NOW);
    expect(a.kid).not.toBe(b.kid);
    expect(a.kid).toMatch(/^k20261127T070000-[0-9a-f]{8}$/);
    expect(a.secret.length).toBeGreaterThanOrEqual(64);
    expect(parseKeySet(serializeKeySet({ keys: [a] })).keys[0]).toEqual(a);
  });
});

/** A key set "secret" the test changes, read through a CachedKeySource on a hand-driven clock. */
function harness(cacheMs = 60_000, minReloadMs = 5_000) {
  let text = serializeKeySet({ keys: [key('k1')] });
  let t = 0;
  let reads = 0;
  let failing = false;
  const errors: unknown[] = [];
  const source = new CachedKeySource({
    read: async () => {
      reads += 1;
      if (failing) throw new Error('unreachable');
      return text;
    },
    now: () => t,
    cacheMs,
    minReloadMs,
    onReloadError: (e) => errors.push(e),
  });
  return {
    source,
    tokens: new TokenService(source, 3600),
    put: (set: TokenKeySet) => {
      text = serializeKeySet(set);
    },
    advance: (ms: number) => {
      t += ms;
    },
    fail: (v: boolean) => {
      failing = v;
    },
    reads: () => reads,
    errors,
  };
}

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string }).kid;

describe('a cached key set (warm functions)', () => {
  it('reads once within the cache time, and again after it', async () => {
    const h = harness();
    await h.source.current();
    await h.source.current();
    expect(h.reads()).toBe(1);
    h.advance(60_000);
    await h.source.current();
    expect(h.reads()).toBe(2);
  });

  it('throws when the first read fails, and reads again on the next call', async () => {
    const h = harness();
    h.fail(true);
    await expect(h.source.current()).rejects.toThrow('unreachable');
    h.fail(false);
    expect(signingKey(await h.source.current()).kid).toBe('k1');
  });

  it('keeps the last good set when a later read fails, and tries again only after the minimum interval', async () => {
    const h = harness();
    await h.source.current();
    h.fail(true);
    h.advance(60_000);
    expect(signingKey(await h.source.current()).kid).toBe('k1');
    expect(h.errors).toHaveLength(1);
    await h.source.current();
    expect(h.reads()).toBe(2);
    h.advance(5_000);
    await h.source.current();
    expect(h.reads()).toBe(3);
  });

  it('reads at once for an unknown kid, but at most once per minimum interval', async () => {
    const h = harness();
    await h.source.current();
    h.advance(5_000);
    expect(await h.source.forKid('nope')).toBeUndefined();
    expect(h.reads()).toBe(2);
    expect(await h.source.forKid('nope-again')).toBeUndefined();
    expect(await h.source.forKid('nope-3')).toBeUndefined();
    expect(h.reads()).toBe(2);
  });
});

describe('tokens across a rotation', () => {
  it('new tokens name the newest key; old ones stay valid until the old key is retired', async () => {
    const h = harness();
    const old = await h.tokens.issue({ sub: 'u1', tv: 1 }, NOW);
    expect(kidOf(old)).toBe('k1');

    h.put(rotateKeySet({ keys: [key('k1')] }, key('k2')));
    // within the cache time a warm function still signs with k1...
    expect(kidOf(await h.tokens.issue({ sub: 'u1', tv: 1 }, NOW))).toBe('k1');
    // ...and one that meets a k2 token reads the set again at once
    h.advance(5_000);
    const other = harness();
    other.put({ keys: [key('k2'), key('k1')] });
    const fromNewer = await other.tokens.issue({ sub: 'u2', tv: 3 }, NOW);
    expect(kidOf(fromNewer)).toBe('k2');
    expect(await h.tokens.verify(fromNewer, NOW)).toEqual({ sub: 'u2', tv: 3 });
    expect(kidOf(await h.tokens.issue({ sub: 'u1', tv: 1 }, NOW))).toBe('k2');
    expect(await h.tokens.verify(old, NOW)).toEqual({ sub: 'u1', tv: 1 });

    h.put(retireKeySet({ keys: [key('k2'), key('k1')] }));
    h.advance(60_000);
    expect(await h.tokens.verify(old, NOW)).toBeNull();
    expect(await h.tokens.verify(fromNewer, NOW)).toEqual({ sub: 'u2', tv: 3 });
  });

  it('refuses a token without a kid, with a kid of another set, or with the right kid and another secret', async () => {
    const h = harness();
    const single = new TokenService(key('k1').secret, 3600);
    const noKidSet = await single.issue({ sub: 'u', tv: 1 }, NOW);
    // a plain secret is a set of one key with a derived kid
    expect(kidOf(noKidSet)).toBe(legacyKid(key('k1').secret));
    expect(await h.tokens.verify(noKidSet, NOW)).toBeNull();
    const noKid = await new SignJWT({ tv: 1 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('u')
      .setIssuer('firmware-release-portal')
      .setIssuedAt(Math.floor(NOW.getTime() / 1000))
      .setExpirationTime(Math.floor(NOW.getTime() / 1000) + 60)
      .sign(new TextEncoder().encode(key('k1').secret));
    expect(await h.tokens.verify(noKid, NOW)).toBeNull();
    // a token of before key ids (no kid) is valid while the set holds that plain secret, not after
    const legacy = harness();
    legacy.put(parseKeySet(key('k1').secret));
    expect(await legacy.tokens.verify(noKid, NOW)).toEqual({ sub: 'u', tv: 1 });
    legacy.put(rotateKeySet(parseKeySet(key('k1').secret), key('k2')));
    legacy.advance(60_000);
    expect(await legacy.tokens.verify(noKid, NOW)).toEqual({ sub: 'u', tv: 1 });
    legacy.put(retireKeySet(rotateKeySet(parseKeySet(key('k1').secret), key('k2'))));
    legacy.advance(60_000);
    expect(await legacy.tokens.verify(noKid, NOW)).toBeNull();

    const forged = new TokenService(
      {
        current: async () => ({ keys: [{ kid: 'k1', secret: 'x'.repeat(40) }] }),
        forKid: async () => undefined,
      },
      3600,
    );
    expect(await h.tokens.verify(await forged.issue({ sub: 'u', tv: 1 }, NOW), NOW)).toBeNull();
    expect(await h.tokens.verify('not-a-token', NOW)).toBeNull();
    expect(await h.tokens.verify('a.b.c', NOW)).toBeNull();
  });
});
