import { createServer, type Server } from 'node:net';

/** `preferred` if it is free on 127.0.0.1, otherwise any free port. */
export function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => {
      if (preferred === 0) throw new Error('no free port');
      resolve(freePort(0));
    });
    srv.listen(preferred, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : preferred;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, what: string): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start listening on port ${port} within ${timeoutMs / 1000} s`);
}

/** The error for a port another process holds: it names the port and the variable that sets it. */
export const portTakenMessage = (port: number, variable: string): string =>
  `port ${port} is taken by another process: set ${variable} to a free port (e.g. ${variable}=${port + 1})`;

const inUse = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/**
 * Rejects at once when `port` (set by `variable`) is taken on 127.0.0.1, so a stack whose own port is
 * taken fails before it starts any emulator, with an error naming the port and the variable.
 */
export function ensurePortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e) => reject(inUse(e) ? new Error(portTakenMessage(port, variable)) : e));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

/** `server.listen` on 127.0.0.1: a port taken meanwhile is the same clear error as ensurePortFree's. */
export function listenOn(server: Server, port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (e) => reject(inUse(e) ? new Error(portTakenMessage(port, variable)) : e));
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
