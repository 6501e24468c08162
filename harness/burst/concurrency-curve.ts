// Pure: the latency–concurrency curve of a burst run. Per path and N (the
// launches released together):
// - the P50 of per-launch Ready: each session's P50 over its launches that
//   became Ready, their geometric mean over sessions, and its between-session
//   interval: Student's t over the per-session log P50s (sessions are the
//   level a rerun on this host repeats; K − 1 df, none below 3 sessions),
//   turned back into ms. The estimate and its interval are of one estimand;
// - P95 and P99 of per-launch Ready only where n supports a distribution-free
//   interval (stats/quantile-interval.ts: n ≥ 72 and n ≥ 368 at 95%), never
//   trimmed first; otherwise absent, with the n they need;
// - the makespan and launches per second of a burst: the median over the
//   session's bursts, then the same t interval over sessions;
// - the failure fraction with its Clopper–Pearson interval;
// - the ratio of its P50 to the same path's at N = 1 (the sequential
//   launch): t over the per-session log ratios, each session's P50 at N over
//   its own P50 at N = 1, so the session's own drift cancels.
import { clopperPearson, type ProportionInterval } from '../stats/clopper-pearson.js';
import { median } from '../stats/quantile.js';
import { minSupportedN, quantileInterval, type QuantileInterval } from '../stats/quantile-interval.js';
import { sessionTInterval } from '../stats/session-t-interval.js';
import { summarizeBursts, type BurstLaunch, type BurstSummary } from '../stats/burst-summary.js';

export interface Estimate {
  value: number;
  /** Between sessions; null with fewer than 3 sessions. */
  low: number | null;
  high: number | null;
}

export interface TailPercentile {
  p: number;
  /** null: too few launches for an interval; `needN` says how many. */
  interval: QuantileInterval | null;
  needN: number;
}

export interface CurvePoint {
  path: string;
  level: number;
  sessions: number;
  bursts: number;
  launches: number;
  failures: ProportionInterval;
  /** null when no launch became Ready. */
  p50Ms: Estimate | null;
  tails: TailPercentile[];
  /** Over the bursts where every launch became Ready; null when none did. */
  makespanMs: Estimate | null;
  launchesPerS: Estimate | null;
  /** P50 at N over P50 at N = 1; null without N = 1 or at N = 1. */
  ratioToSequential: Estimate | null;
}

export const TAIL_PERCENTILES = [0.95, 0.99] as const;

/** The geometric mean of positive per-session values with its t interval on the log scale; null when none. */
export function logScaleEstimate(perSession: readonly number[], confidence: number): Estimate | null {
  const xs = perSession.filter((x) => x > 0 && Number.isFinite(x));
  if (!xs.length) return null;
  const logs = xs.map(Math.log);
  const t = sessionTInterval(logs, confidence);
  const mean = logs.reduce((s, v) => s + v, 0) / logs.length;
  return { value: Math.exp(mean), low: t ? Math.exp(t.low) : null, high: t ? Math.exp(t.high) : null };
}

export function bySession<T extends { session: number }>(xs: readonly T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const x of xs) {
    const g = m.get(x.session);
    if (g) g.push(x);
    else m.set(x.session, [x]);
  }
  return m;
}

export const readyOf = (ls: readonly BurstLaunch[]): number[] => ls.filter((l) => l.ok && l.readyMs !== null).map((l) => l.readyMs!);

export function sessionMedians<T extends { session: number }>(xs: readonly T[], value: (g: T[]) => number[]): number[] {
  return [...bySession(xs).values()]
    .map((g) => value(g))
    .filter((v) => v.length > 0)
    .map((v) => median(v));
}

/** Per session with launches of both: the P50 of `at` over the P50 of `base`. */
export function sessionRatios(at: readonly BurstLaunch[], base: readonly BurstLaunch[]): number[] {
  const baseBy = bySession(base);
  const out: number[] = [];
  for (const [session, ls] of bySession(at)) {
    const a = readyOf(ls);
    const b = readyOf(baseBy.get(session) ?? []);
    if (a.length && b.length) out.push(median(a) / median(b));
  }
  return out;
}

export function concurrencyCurve(launches: readonly BurstLaunch[], confidence = 0.95): CurvePoint[] {
  const bursts = summarizeBursts(launches);
  const cellKey = (path: string, level: number): string => `${path}\u0000${level}`;
  const cells = new Map<string, { path: string; level: number; launches: BurstLaunch[]; bursts: BurstSummary[] }>();
  for (const l of launches) {
    const k = cellKey(l.path, l.level);
    const c = cells.get(k) ?? { path: l.path, level: l.level, launches: [], bursts: [] };
    c.launches.push(l);
    cells.set(k, c);
  }
  for (const b of bursts) cells.get(cellKey(b.path, b.level))!.bursts.push(b);
  const points = [...cells.values()].map((c): CurvePoint => {
    const ready = readyOf(c.launches);
    const failed = c.launches.length - ready.length;
    const sequential = c.level === 1 ? undefined : cells.get(cellKey(c.path, 1));
    const p50PerSession = sessionMedians(c.launches, readyOf);
    const complete = (key: 'makespanMs' | 'launchesPerS') => (g: BurstSummary[]) => g.map((b) => b[key]).filter((v): v is number => v !== null);
    return {
      path: c.path,
      level: c.level,
      sessions: new Set(c.launches.map((l) => l.session)).size,
      bursts: c.bursts.length,
      launches: c.launches.length,
      failures: clopperPearson(failed, c.launches.length, confidence),
      p50Ms: logScaleEstimate(p50PerSession, confidence),
      tails: TAIL_PERCENTILES.map((p) => ({ p, interval: quantileInterval(ready, p, confidence), needN: minSupportedN(p, confidence) })),
      makespanMs: logScaleEstimate(sessionMedians(c.bursts, complete('makespanMs')), confidence),
      launchesPerS: logScaleEstimate(sessionMedians(c.bursts, complete('launchesPerS')), confidence),
      ratioToSequential: sequential ? logScaleEstimate(sessionRatios(c.launches, sequential.launches), confidence) : null,
    };
  });
  return points.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.level - b.level));
}
