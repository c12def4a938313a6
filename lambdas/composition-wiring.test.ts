import { describe, expect, it } from 'vitest';
import { lazy, noBlobStore, noMailer, once } from './composition';

/**
 * Explicit wiring (decision 122): getters build once and again after a failed build; a port is
 * forwarded to an adapter built on first use, every method without a list (decision 270); a Lambda that
 * did not import an adapter's module gets a stand-in that says which module its handler must import.
 */
describe('wiring helpers', () => {
  it('once builds on the first call, keeps the value, and builds again after a build that threw', () => {
    let builds = 0;
    let fail = true;
    const get = once(() => {
      builds += 1;
      if (fail) throw new Error('no table name');
      return { n: builds };
    });
    expect(get).toThrow('no table name');
    fail = false;
    const v = get();
    expect(get()).toBe(v);
    expect(builds).toBe(2);
  });

  it('lazy forwards every method with its arguments to one adapter built on the first call, with no list of methods', async () => {
    let builds = 0;
    class Adapter {
      constructor(private readonly prefix: string) {}
      async get(key: string) {
        return `${this.prefix}:${key}`;
      }
      async put(key: string, value: number) {
        return `${this.prefix}:${key}=${value}`;
      }
      // a method added to a port reaches the adapter with no wiring edit
      added() {
        return `${this.prefix}:added`;
      }
    }
    const port = lazy(() => {
      builds += 1;
      return new Adapter('made');
    });
    expect(builds).toBe(0);
    expect(await port.get('a')).toBe('made:a');
    expect(await port.put('b', 2)).toBe('made:b=2');
    expect(port.added()).toBe('made:added');
    expect(port.get).toBe(port.get);
    expect(builds).toBe(1);
  });

  it('a lazy port is no thenable: awaiting it or returning it from an async function builds nothing', async () => {
    let builds = 0;
    const port = lazy(() => {
      builds += 1;
      return { name: () => 'made' };
    });
    const returned = await (async () => port)();
    expect(returned).toBe(port);
    expect(await port).toBe(port);
    expect(builds).toBe(0);
    expect(returned.name()).toBe('made');
  });

  it('a Lambda without mail or object storage gets stand-ins naming the module to import', async () => {
    await expect(noMailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
      /no mailer: its handler must import lambdas\/composition-mail\.ts/,
    );
    expect(() => noBlobStore.head('bucket', 'key')).toThrow(
      /no object storage: its handler must import lambdas\/composition-storage\.ts/,
    );
    expect(() => noBlobStore.presignGet('bucket', 'key', {} as never)).toThrow(/composition-storage\.ts/);
  });
});
