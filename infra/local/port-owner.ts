import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Who answers on a port: the emulator just started, or another process (a second local stack that
 * picked the same free port a moment earlier). Linux tells through /proc: the listening socket's inode
 * in /proc/net/tcp{,6}, and the process's open files. Elsewhere the answer is 'unknown'.
 */
export type PortOwner = 'ours' | 'other' | 'unknown';

function listeningInodes(port: number): Set<string> | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  let read = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth column
      if (cols.length > 9 && cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!);
    }
  }
  return read ? inodes : undefined;
}

function holdsOneOf(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1]!)) return true;
    } catch {
      // the descriptor closed while we looked
    }
  }
  return false;
}

/** Whether the process `pid` is the one listening on `port`. */
export function portOwner(port: number, pid: number | undefined): PortOwner {
  const inodes = listeningInodes(port);
  if (!inodes || pid === undefined) return 'unknown';
  if (inodes.size === 0) return 'unknown';
  return holdsOneOf(pid, inodes) ? 'ours' : 'other';
}
