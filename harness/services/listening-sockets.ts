// The TCP sockets a process group listens on, from /proc (Linux): the
// command service kind refuses a daemon that listens beyond loopback.
// Parsing /proc/net/tcp{,6} is pure; reading /proc is the effect at the edge.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface ListeningSocket {
  address: string;
  port: number;
  inode: string;
}

function ipv4(hex: string): string {
  // /proc/net/tcp prints the address as a little-endian 32-bit word.
  const n = parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
}

function ipv6(hex: string): string {
  const words: string[] = [];
  for (let i = 0; i < 32; i += 8) {
    const w = hex.slice(i, i + 8);
    const le = w.slice(6, 8) + w.slice(4, 6) + w.slice(2, 4) + w.slice(0, 2);
    words.push(le.slice(0, 4), le.slice(4, 8));
  }
  const text = words.map((w) => parseInt(w, 16).toString(16)).join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  const mapped = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(text);
  if (mapped) {
    const a = parseInt(mapped[1]!, 16);
    const b = parseInt(mapped[2]!, 16);
    return `::ffff:${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return text;
}

/** Pure: the LISTEN sockets (state 0A) of a /proc/net/tcp or tcp6 text. */
export function parseProcNetTcp(text: string, v6: boolean): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== '0A') continue;
    const [addr, port] = f[1]!.split(':');
    out.push({ address: v6 ? ipv6(addr!) : ipv4(addr!), port: parseInt(port!, 16), inode: f[9]! });
  }
  return out;
}

export function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);
}

/** Pids whose process group is `pgid`. */
function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The TCP sockets the processes of group `pgid` listen on. */
export function listeningSocketsOfGroup(pgid: number): ListeningSocket[] {
  const inodes = new Set<string>();
  const pids = groupPids(pgid);
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
          if (m) inodes.add(m[1]!);
        } catch {
          /* closed */
        }
      }
    } catch {
      /* gone */
    }
  }
  // Each process's own network namespace (/proc/PID/net), so a daemon in another namespace is seen as it listens there.
  const all = new Map<string, ListeningSocket>();
  for (const pid of pids) {
    for (const [file, v6] of [
      ['tcp', false],
      ['tcp6', true],
    ] as const) {
      try {
        for (const s of parseProcNetTcp(readFileSync(`/proc/${pid}/net/${file}`, 'utf8'), v6)) if (inodes.has(s.inode)) all.set(s.inode, s);
      } catch {
        /* gone */
      }
    }
  }
  return [...all.values()];
}
