// What the host can tell cheaply about its own speed, read beside the host
// canary (harness/experiment/host-canary.ts): CPU ticks (steal), CPU
// frequency where readable, memory-reclaim counters, page-cache size and the
// CPU time of pid 1 (on cloud hosts, the provider's agent may run as pid 1 or
// under it). Effects at the edge: readHostCounters() reads /proc and /sys
// once; the parsers and hostCounterDelta() are pure.
import { readdirSync, readFileSync } from 'node:fs';
import { clockTicksPerSecond, meminfoBytes, parsePidStat, parseProcStat, type CpuTicks } from './host-noise.js';

export interface HostCounters {
  takenAt: string;
  cpu: CpuTicks;
  clockTicksPerSecond: number;
  /** Mean of cpufreq scaling_cur_freq over the CPUs that have it, else of /proc/cpuinfo "cpu MHz"; null when neither is readable. */
  cpuMhz: number | null;
  cpuMhzSource: 'cpufreq' | 'cpuinfo' | null;
  /** Sums of /proc/vmstat pgscan_* and pgsteal_* (pages scanned and reclaimed since boot). */
  pgscan: number;
  pgsteal: number;
  /** /proc/meminfo Cached (page cache). */
  cachedBytes: number;
  /** utime + stime of pid 1, in clock ticks; null when unreadable. */
  pid1CpuTicks: number | null;
}

/** What changed between two readings: shares of all CPU time, counter increases, and the page cache at both ends. */
export interface HostCounterDelta {
  wallMs: number;
  stealShare: number | null;
  cpuMhzStart: number | null;
  cpuMhzEnd: number | null;
  pgscan: number;
  pgsteal: number;
  cachedBytesStart: number;
  cachedBytesEnd: number;
  /** CPU time of pid 1 between the readings, ms; null when unreadable. */
  pid1CpuMs: number | null;
}

// ---- parsers (pure) ----

/** Sums of the pgscan_* and pgsteal_* lines of /proc/vmstat (pgscan_direct_throttle is a count of events, not pages: left out). */
export function parseReclaim(vmstat: string): { pgscan: number; pgsteal: number } {
  let pgscan = 0;
  let pgsteal = 0;
  for (const line of vmstat.split('\n')) {
    const [name, value] = line.trim().split(/\s+/);
    if (!name || value === undefined) continue;
    if (name === 'pgscan_direct_throttle' || name === 'pgscan_anon' || name === 'pgscan_file') continue; // by type: already in the by-reclaimer sums
    if (name === 'pgsteal_anon' || name === 'pgsteal_file') continue;
    if (name.startsWith('pgscan_')) pgscan += Number(value);
    else if (name.startsWith('pgsteal_')) pgsteal += Number(value);
  }
  return { pgscan, pgsteal };
}

/** Mean "cpu MHz" of /proc/cpuinfo; null when it has none. */
export function parseCpuinfoMhz(cpuinfo: string): number | null {
  const values = [...cpuinfo.matchAll(/^cpu MHz\s*:\s*([0-9.]+)/gm)].map((m) => Number(m[1]));
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : null;
}

export function hostCounterDelta(start: HostCounters, end: HostCounters): HostCounterDelta {
  const total = (t: CpuTicks): number => t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq + t.steal;
  const ticks = total(end.cpu) - total(start.cpu);
  const msPerTick = 1000 / end.clockTicksPerSecond;
  return {
    wallMs: Date.parse(end.takenAt) - Date.parse(start.takenAt),
    stealShare: ticks > 0 ? (end.cpu.steal - start.cpu.steal) / ticks : null,
    cpuMhzStart: start.cpuMhz,
    cpuMhzEnd: end.cpuMhz,
    pgscan: end.pgscan - start.pgscan,
    pgsteal: end.pgsteal - start.pgsteal,
    cachedBytesStart: start.cachedBytes,
    cachedBytesEnd: end.cachedBytes,
    pid1CpuMs: start.pid1CpuTicks !== null && end.pid1CpuTicks !== null ? (end.pid1CpuTicks - start.pid1CpuTicks) * msPerTick : null,
  };
}

// ---- reading (effects) ----

const readOrNull = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

function cpufreqMhz(): number | null {
  let names: string[];
  try {
    names = readdirSync('/sys/devices/system/cpu').filter((n) => /^cpu[0-9]+$/.test(n));
  } catch {
    return null;
  }
  const khz = names.map((n) => readOrNull(`/sys/devices/system/cpu/${n}/cpufreq/scaling_cur_freq`)).filter((t): t is string => t !== null);
  return khz.length ? khz.reduce((s, t) => s + Number(t.trim()), 0) / khz.length / 1000 : null;
}

export function readHostCounters(): HostCounters {
  const sysMhz = cpufreqMhz();
  const infoMhz = sysMhz === null ? parseCpuinfoMhz(readOrNull('/proc/cpuinfo') ?? '') : null;
  const pid1 = readOrNull('/proc/1/stat');
  return {
    takenAt: new Date().toISOString(),
    cpu: parseProcStat(readFileSync('/proc/stat', 'utf8')),
    clockTicksPerSecond: clockTicksPerSecond(),
    cpuMhz: sysMhz ?? infoMhz,
    cpuMhzSource: sysMhz !== null ? 'cpufreq' : infoMhz !== null ? 'cpuinfo' : null,
    ...parseReclaim(readOrNull('/proc/vmstat') ?? ''),
    cachedBytes: meminfoBytes(readFileSync('/proc/meminfo', 'utf8'), 'Cached'),
    pid1CpuTicks: pid1 ? parsePidStat(pid1).cpuTicks : null,
  };
}
