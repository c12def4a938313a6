import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePortFree, freePort, listenOn } from './ports';

/** A port held by another server, as a second checkout's stack holds it. */
async function holdPort(): Promise<{ port: number; holder: Server }> {
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  const addr = holder.address();
  if (!addr || typeof addr !== 'object') throw new Error('no address');
  return { port: addr.port, holder };
}

const open: { close(cb?: () => void): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

describe("the local stack's own port", () => {
  it('a taken port is refused before anything starts, naming the port and its variable', async () => {
    const { port, holder } = await holdPort();
    open.push(holder);
    await expect(ensurePortFree(port, 'PORT')).rejects.toThrow(
      `port ${port} is taken by another process: set PORT to a free port`,
    );
  });

  it('a free port passes the check and stays free for the server', async () => {
    const port = await freePort();
    await expect(ensurePortFree(port, 'PORT')).resolves.toBeUndefined();
    const server = createHttpServer();
    await listenOn(server, port, 'PORT');
    open.push(server);
    expect(server.address()).toMatchObject({ port });
  });

  it('a port taken between the check and the listen is the same clear error, with the variable given', async () => {
    const { port, holder } = await holdPort();
    open.push(holder);
    const server = createHttpServer();
    await expect(listenOn(server, port, 'API_PORT')).rejects.toThrow(
      `port ${port} is taken by another process: set API_PORT to a free port`,
    );
    expect(server.listening).toBe(false);
  });
});
