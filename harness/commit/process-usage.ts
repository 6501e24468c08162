// Effects + pure parsing: CPU time and bytes read of a process and its
// descendants, from /proc. CPU = utime + stime of every live process of the
// tree plus cutime + cstime (descendants it already reaped), also split into
// user (utime + cutime) and system (stime + cstime) time; system calls =
// syscr + syscw of /proc/PID/io (read- and write-type calls); bytes read =
// read_bytes (what the tree made the block layer fetch) and rchar (what it
// read through system calls, page cache included) of every live process.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessUsage {
  cpuMs: number;
  userCpuMs: number;
  sysCpuMs: number;
  /** Read- and write-type system calls (syscr + syscw). */
  syscalls: number;
  diskReadBytes: number;
  readCharsBytes: number;
  processes: number;
}

let ticksPerSecond: number | null = null;
function clockTicks(): number {
  if (ticksPerSecond === null) ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

export interface StatFields {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  cpuTicks: number;
  /** utime + cutime, and stime + cstime. */
  userTicks: number;
  sysTicks: number;
}

/** Pure: the fields of a /proc/PID/stat line we need (the command name may hold spaces and parentheses). */
export function parseStat(line: string): StatFields {
  const close = line.lastIndexOf(')');
  const pid = Number(line.slice(0, line.indexOf(' ')));
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); utime is field 14 -> rest[11]
  const n = (i: number) => Number(rest[i]);
  return { pid, ppid: n(1), cpuTicks: n(11) + n(12) + n(13) + n(14), userTicks: n(11) + n(13), sysTicks: n(12) + n(14) };
}

/** Pure: read_bytes, rchar and the system call counts of a /proc/PID/io text. */
export function parseIo(text: string): { readBytes: number; rchar: number; syscalls: number } {
  const get = (k: string) => Number(new RegExp(`^${k}:\\s*(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { readBytes: get('read_bytes'), rchar: get('rchar'), syscalls: get('syscr') + get('syscw') };
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Usage of `rootPid` and every live descendant, now. */
export function processTreeUsage(rootPid: number): ProcessUsage {
  const stats: StatFields[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const line = readOr(`/proc/${name}/stat`);
    if (line) stats.push(parseStat(line));
  }
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const byPid = new Map(stats.map((s) => [s.pid, s]));
  const tree: number[] = [];
  const todo = [rootPid];
  while (todo.length) {
    const pid = todo.pop()!;
    if (!byPid.has(pid)) continue;
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  let ticks = 0;
  let userTicks = 0;
  let sysTicks = 0;
  let diskReadBytes = 0;
  let readCharsBytes = 0;
  let syscalls = 0;
  for (const pid of tree) {
    const s = byPid.get(pid)!;
    ticks += s.cpuTicks;
    userTicks += s.userTicks;
    sysTicks += s.sysTicks;
    const io = readOr(`/proc/${pid}/io`);
    if (io) {
      const v = parseIo(io);
      diskReadBytes += v.readBytes;
      readCharsBytes += v.rchar;
      syscalls += v.syscalls;
    }
  }
  const msOf = (t: number): number => (t * 1000) / clockTicks();
  return { cpuMs: msOf(ticks), userCpuMs: msOf(userTicks), sysCpuMs: msOf(sysTicks), syscalls, diskReadBytes, readCharsBytes, processes: tree.length };
}

/** Pure: after minus before (a process that ended between them can make a term negative; clamp at 0). */
export function usageDelta(before: ProcessUsage, after: ProcessUsage): ProcessUsage {
  return {
    cpuMs: Math.max(0, after.cpuMs - before.cpuMs),
    userCpuMs: Math.max(0, after.userCpuMs - before.userCpuMs),
    sysCpuMs: Math.max(0, after.sysCpuMs - before.sysCpuMs),
    syscalls: Math.max(0, after.syscalls - before.syscalls),
    diskReadBytes: Math.max(0, after.diskReadBytes - before.diskReadBytes),
    readCharsBytes: Math.max(0, after.readCharsBytes - before.readCharsBytes),
    processes: after.processes,
  };
}
