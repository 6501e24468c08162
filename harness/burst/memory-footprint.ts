// How much memory one launch of a path takes, measured, and whether a burst of
// N of them fits: the largest drop of MemAvailable (/proc/meminfo) while one
// launch runs, polled every few milliseconds. MemAvailable sees what rusage
// does not: a gVisor sandbox's sentry and gofer, a container's shim under a
// Docker engine. A burst is refused before it starts when N times that drop
// exceeds half of what is available.
import { readFileSync } from 'node:fs';

/** MemAvailable of /proc/meminfo, kB; null where it cannot be read. */
export function memAvailableKb(): number | null {
  try {
    const m = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Runs `work` while polling MemAvailable; the largest drop below its value before the work, kB (0 when none). */
export async function peakDropKb<T>(work: () => Promise<T>, everyMs = 5): Promise<{ result: T; dropKb: number }> {
  const before = memAvailableKb() ?? 0;
  let lowest = before;
  const timer = setInterval(() => {
    const now = memAvailableKb();
    if (now !== null && now < lowest) lowest = now;
  }, everyMs);
  try {
    const result = await work();
    return { result, dropKb: Math.max(0, before - lowest) };
  } finally {
    clearInterval(timer);
  }
}

/** Pure: the burst of `level` launches of a path whose one launch took `footprintKb` does not fit in half of `availableKb`: the refusal's text, or null when it fits. */
export function burstMemoryProblem(path: string, level: number, footprintKb: number, availableKb: number): string | null {
  const needKb = level * footprintKb;
  if (needKb <= availableKb / 2) return null;
  const mib = (kb: number): string => `${Math.round(kb / 1024).toLocaleString('en-US')} MiB`;
  return `a burst of ${level} ${path} launches needs about ${mib(needKb)} (${level} × ${mib(footprintKb)} measured for one), more than half of the ${mib(availableKb)} available`;
}
