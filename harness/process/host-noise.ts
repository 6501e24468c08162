// Host noise over a sampling session: what else the machine was doing.
//
// Effects at the edge: readHostSnapshot() reads /proc (stat, loadavg,
// meminfo, cpuinfo, every /proc/PID/stat) once. Everything else is pure:
// the parsers, hostNoise(start, end, roots) and the noisy-session rule.
//
// hostNoise() reports, between two snapshots:
// - CPU model and count; load average and MemAvailable at start and end;
// - steal, iowait and idle shares of all CPU time (/proc/stat "cpu" line
//   deltas over user+nice+system+idle+iowait+irq+softirq+steal);
// - CPU time (user+system, plus that of children they reaped) of processes
//   that are not ours, summed by name (comm), top 5. Ours: a root pid
//   (normally process.pid, plus daemons we started that detached, e.g. an
//   rclone --daemon) and every descendant of one, by the parent links of
//   either snapshot. A process in both snapshots (same pid and start time)
//   counts its increase; one only in the end snapshot started during the
//   session and counts all its time; one that started and ended between
//   the snapshots is seen only through the parent that reaped it.
//
// The noisy rule (noisySession, thresholds in defaultNoiseRule): a session
// is noisy when any of
//   steal share >= 2% (the hypervisor gave our CPUs to someone else);
//   foreign CPU time >= 10% of the capacity (wall time x CPU count);
//   iowait share >= 25% (high: our own image pulls and unpacking also wait on I/O);
//   MemAvailable at start or end < 10% of MemTotal (page cache under pressure).
// A noisy session is flagged with its reasons, never dropped. The load
// average is recorded but is not part of the rule: it counts our own
// processes too, and at the start of session 2 it still held session 1's
// launches (2.26 on 2 CPUs in the published run), which flagged a quiet
// session noisy.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuTicks {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
}

export interface ProcessTicks {
  pid: number;
  ppid: number;
  /** comm: the executable's name, at most 15 characters. */
  name: string;
  /** Start time after boot, in clock ticks: with pid, identifies the process. */
  startTicks: number;
  /** utime + stime. */
  cpuTicks: number;
  /** cutime + cstime: children it has waited for. */
  childTicks: number;
}

export interface HostSnapshot {
  takenAtMs: number;
  clockTicksPerSecond: number;
  cpuModel: string;
  cpuCount: number;
  loadAverage: [number, number, number];
  memAvailableBytes: number;
  memTotalBytes: number;
  cpu: CpuTicks;
  processes: ProcessTicks[];
}

export interface ForeignProcessTime {
  name: string;
  cpuMs: number;
  processes: number;
}

export interface HostNoise {
  wallMs: number;
  cpuModel: string;
  cpuCount: number;
  loadAverageStart: [number, number, number];
  loadAverageEnd: [number, number, number];
  memAvailableStartBytes: number;
  memAvailableEndBytes: number;
  memTotalBytes: number;
  stealShare: number;
  iowaitShare: number;
  idleShare: number;
  /** CPU time of processes that are not ours, all names; at most the busy CPU time of the window less ours. */
  foreignCpuMs: number;
  /** The names with the most foreign CPU time (top 5 unless asked otherwise), most first. */
  topForeign: ForeignProcessTime[];
}

export interface NoiseRule {
  maxStealShare: number;
  maxForeignCpuShare: number;
  maxIowaitShare: number;
  minMemAvailableShare: number;
}

export const defaultNoiseRule: NoiseRule = {
  maxStealShare: 0.02,
  maxForeignCpuShare: 0.1,
  maxIowaitShare: 0.25,
  minMemAvailableShare: 0.1,
};

// ---- parsers (pure) ----

/** The aggregate "cpu" line of /proc/stat. */
export function parseProcStat(text: string): CpuTicks {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no aggregate cpu line');
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { user: user!, nice: nice!, system: system!, idle: idle!, iowait: iowait ?? 0, irq: irq ?? 0, softirq: softirq ?? 0, steal: steal ?? 0 };
}

export function parseLoadAverage(text: string): [number, number, number] {
  const [a, b, c] = text.trim().split(/\s+/).map(Number);
  return [a!, b!, c!];
}

/** A /proc/meminfo field in bytes (the file says kB). */
export function meminfoBytes(text: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
  if (!m) throw new Error(`/proc/meminfo has no ${field}`);
  return Number(m[1]) * 1024;
}

export function parseCpuinfo(text: string): { model: string; count: number } {
  const count = text.split('\n').filter((l) => /^processor\s*:/.test(l)).length;
  const model = /^model name\s*:\s*(.*)$/m.exec(text)?.[1]?.trim() ?? 'unknown';
  return { model, count };
}

/** One /proc/PID/stat line; the name may hold spaces and parentheses, so fields are counted after the last ')'. */
export function parsePidStat(text: string): ProcessTicks {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const f = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // f[0] is field 3 (state): field n is f[n - 3]
  return {
    pid: Number(text.slice(0, open).trim()),
    name: text.slice(open + 1, close),
    ppid: Number(f[1]),
    cpuTicks: Number(f[11]) + Number(f[12]),
    childTicks: Number(f[13]) + Number(f[14]),
    startTicks: Number(f[19]),
  };
}

// ---- snapshot (effects) ----

let clockTicks: number | null = null;
export function clockTicksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      clockTicks = 100; // USER_HZ on every Linux architecture we run on
    }
  }
  return clockTicks;
}

function readProcesses(): ProcessTicks[] {
  const out: ProcessTicks[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push(parsePidStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // the process ended while we listed /proc
    }
  }
  return out;
}

export function readHostSnapshot(): HostSnapshot {
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const cpuinfo = parseCpuinfo(readFileSync('/proc/cpuinfo', 'utf8'));
  return {
    takenAtMs: Date.now(),
    clockTicksPerSecond: clockTicksPerSecond(),
    cpuModel: cpuinfo.model,
    cpuCount: cpuinfo.count,
    loadAverage: parseLoadAverage(readFileSync('/proc/loadavg', 'utf8')),
    memAvailableBytes: meminfoBytes(meminfo, 'MemAvailable'),
    memTotalBytes: meminfoBytes(meminfo, 'MemTotal'),
    cpu: parseProcStat(readFileSync('/proc/stat', 'utf8')),
    processes: readProcesses(),
  };
}

// ---- noise between two snapshots (pure) ----

/** Pids that are a root or descend from one, by the parent links of the given process lists. */
export function ourPids(roots: readonly number[], ...lists: readonly ProcessTicks[][]): Set<number> {
  const children = new Map<number, number[]>();
  for (const list of lists) {
    for (const p of list) {
      let c = children.get(p.ppid);
      if (!c) children.set(p.ppid, (c = []));
      c.push(p.pid);
    }
  }
  const ours = new Set<number>();
  const todo = [...roots];
  while (todo.length) {
    const pid = todo.pop()!;
    if (ours.has(pid)) continue;
    ours.add(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return ours;
}

const totalTicks = (c: CpuTicks): number => c.user + c.nice + c.system + c.idle + c.iowait + c.irq + c.softirq + c.steal;

/** Noise between two snapshots; `top` names are kept in topForeign (5 by default). */
export function hostNoise(start: HostSnapshot, end: HostSnapshot, roots: readonly number[], top = 5): HostNoise {
  const total = totalTicks(end.cpu) - totalTicks(start.cpu);
  const share = (field: keyof CpuTicks): number => (total > 0 ? (end.cpu[field] - start.cpu[field]) / total : 0);
  const ours = ourPids(roots, start.processes, end.processes);
  const before = new Map(start.processes.map((p) => [`${p.pid}:${p.startTicks}`, p]));
  const byName = new Map<string, ForeignProcessTime>();
  const msPerTick = 1000 / end.clockTicksPerSecond;
  for (const p of end.processes) {
    if (ours.has(p.pid)) continue;
    const b = before.get(`${p.pid}:${p.startTicks}`);
    const ticks = p.cpuTicks + p.childTicks - (b ? b.cpuTicks + b.childTicks : 0);
    if (ticks <= 0) continue;
    let e = byName.get(p.name);
    if (!e) byName.set(p.name, (e = { name: p.name, cpuMs: 0, processes: 0 }));
    e.cpuMs += ticks * msPerTick;
    e.processes++;
  }
  // Per-process accounting can exceed what the CPUs did (a process that began
  // just before the first snapshot, or was missed by it, counts its whole life;
  // childTicks include children that ran before the window). The foreign total
  // is therefore capped by the busy CPU time /proc/stat counts over the window,
  // less our own tree's, so a share of the capacity stays within 0-100%.
  let oursTicks = 0;
  for (const p of end.processes) {
    if (!ours.has(p.pid)) continue;
    const b = before.get(`${p.pid}:${p.startTicks}`);
    oursTicks += Math.max(0, p.cpuTicks + p.childTicks - (b ? b.cpuTicks + b.childTicks : 0));
  }
  const busyTicks = total - (end.cpu.idle - start.cpu.idle) - (end.cpu.iowait - start.cpu.iowait);
  const foreignCapMs = Math.max(0, busyTicks - oursTicks) * msPerTick;
  const counted = [...byName.values()].reduce((s, f) => s + f.cpuMs, 0);
  const foreignCpuMs = Math.min(counted, foreignCapMs);
  const foreign = [...byName.values()]
    .map((f) => ({ ...f, cpuMs: Math.min(f.cpuMs, foreignCpuMs) }))
    .sort((x, y) => y.cpuMs - x.cpuMs || x.name.localeCompare(y.name));
  return {
    wallMs: end.takenAtMs - start.takenAtMs,
    cpuModel: end.cpuModel,
    cpuCount: end.cpuCount,
    loadAverageStart: start.loadAverage,
    loadAverageEnd: end.loadAverage,
    memAvailableStartBytes: start.memAvailableBytes,
    memAvailableEndBytes: end.memAvailableBytes,
    memTotalBytes: end.memTotalBytes,
    stealShare: share('steal'),
    iowaitShare: share('iowait'),
    idleShare: share('idle'),
    foreignCpuMs,
    topForeign: foreign.slice(0, top),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The documented rule: noisy when any threshold is crossed; the reasons say which. */
export function noisySession(n: HostNoise, rule: NoiseRule = defaultNoiseRule): { noisy: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (n.stealShare >= rule.maxStealShare) reasons.push(`steal ${pct(n.stealShare)} of CPU time (limit ${pct(rule.maxStealShare)})`);
  const capacityMs = n.wallMs * n.cpuCount;
  const foreignShare = capacityMs > 0 ? n.foreignCpuMs / capacityMs : 0;
  if (foreignShare >= rule.maxForeignCpuShare) {
    const top = n.topForeign
      .slice(0, 3)
      .map((f) => `${f.name} ${(f.cpuMs / 1000).toFixed(1)} s`)
      .join(', ');
    reasons.push(`other processes used ${pct(foreignShare)} of CPU capacity (limit ${pct(rule.maxForeignCpuShare)}): ${top}`);
  }
  if (n.iowaitShare >= rule.maxIowaitShare) reasons.push(`iowait ${pct(n.iowaitShare)} of CPU time (limit ${pct(rule.maxIowaitShare)})`);
  const minMem = Math.min(n.memAvailableStartBytes, n.memAvailableEndBytes);
  if (n.memTotalBytes > 0 && minMem / n.memTotalBytes < rule.minMemAvailableShare) {
    reasons.push(`MemAvailable fell to ${pct(minMem / n.memTotalBytes)} of MemTotal (limit ${pct(rule.minMemAvailableShare)})`);
  }
  return { noisy: reasons.length > 0, reasons };
}
