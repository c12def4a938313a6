import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PortTakenError, startS3, stopAll } from './emulators';
import { portOwner } from './port-owner';

const listen = (): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ server, port: typeof a === 'object' && a ? a.port : 0 });
    });
  });

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe.runIf(process.platform === 'linux')('who answers on a port (Linux /proc)', () => {
  it('says ours for a port this process listens on', async () => {
    const { server, port } = await listen();
    servers.push(server);
    expect(portOwner(port, process.pid)).toBe('ours');
  });

  it('says other for a port another process listens on', async () => {
    const child = spawn(process.execPath, [
      '-e',
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))",
    ]);
    try {
      const port = await new Promise<number>((resolve) =>
        child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
      );
      expect(portOwner(port, process.pid)).toBe('other');
      expect(portOwner(port, child.pid)).toBe('ours');
    } finally {
      child.kill();
    }
  });

  it('refuses an emulator whose port another process answers on, instead of using that process', async () => {
    const { server, port } = await listen();
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'frp-port-'));
    try {
      await expect(startS3(port, dir)).rejects.toBeInstanceOf(PortTakenError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts an emulator on a free port and finds it is the one listening', async () => {
    const { server, port } = await listen();
    await new Promise((r) => server.close(r));
    const dir = mkdtempSync(join(tmpdir(), 'frp-port-'));
    const s3 = await startS3(port, dir);
    try {
      expect(portOwner(port, s3.process.pid)).toBe('ours');
    } finally {
      await stopAll([s3]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
