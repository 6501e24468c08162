// What a session of this run cost, measured from its launches' start times
// (pure): the wall time per formal launch (settle, launch, teardown and
// bookkeeping: the spacing of consecutive formal starts) and the time from a
// session's first launch to its first formal one (preflight and warmup). The
// services' own start, before the first launch, is not in the samples, so the
// session start is a lower bound. Medians over the sessions; null where no
// session has what a figure needs. The next-run plan prices its designs with
// these, not with a launch's Completion alone, which leaves out the settle and
// teardown (about 1.5x less in the published default run).
import type { SessionTimes } from './sample-data.js';

export interface MeasuredSessionCosts {
  /** Median over sessions of (last formal start − first formal start) / (formal launches − 1). */
  launchWallMs: number | null;
  /** Median over sessions of (first formal start − first start): preflight and warmup. */
  preFormalMs: number | null;
  sessions: number;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function measuredSessionCosts(times: readonly SessionTimes[]): MeasuredSessionCosts {
  const ms = (iso: string): number => Date.parse(iso);
  const perLaunch: number[] = [];
  const preFormal: number[] = [];
  for (const t of times) {
    if (t.firstFormalAt === null || t.lastFormalAt === null) continue;
    const first = ms(t.firstFormalAt);
    const last = ms(t.lastFormalAt);
    const start = ms(t.firstStartedAt);
    if (t.formalLaunches >= 2 && Number.isFinite(first) && Number.isFinite(last) && last > first) perLaunch.push((last - first) / (t.formalLaunches - 1));
    if (Number.isFinite(start) && Number.isFinite(first) && first >= start) preFormal.push(first - start);
  }
  return { launchWallMs: median(perLaunch), preFormalMs: median(preFormal), sessions: times.length };
}

/**
 * The rounds per session that keep a Williams order balanced for every cohort
 * (experiment/williams-design.ts: n rows for an even number of paths n, 2n for
 * an odd one, 1 for one path): the least common multiple of the row counts.
 */
export function balancedRoundsMultiple(pathsPerCohort: readonly number[]): number {
  const rows = (n: number): number => (n <= 1 ? 1 : n % 2 === 0 ? n : 2 * n);
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return pathsPerCohort.reduce((m, n) => (m * rows(n)) / gcd(m, rows(n)), 1);
}
