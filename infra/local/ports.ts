import { createServer } from 'node:net';

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
