// Pure: how a sweep's cells grow with its level (report.sweep: the numeric
// level of each unit, e.g. a heap's MiB). Per path, condition and metric:
// the P50 at each level, and the slope in ms per level unit with its
// between-session interval: each session's least-squares slope of its own
// cell P50s on the levels (AnalysisResult cells' per-session medians), then
// Student's t over the sessions (K − 1 df; none below 3 sessions), the level
// a rerun on this host repeats.
import type { CellStatistics } from '../analysis/analysis-result.js';
import { sessionTInterval } from '../stats/session-t-interval.js';

export interface SweepLevels {
  /** Unit id → its numeric level. */
  levels: Readonly<Record<string, number>>;
  /** What the level is, e.g. 'heap'. */
  name: string;
  /** Its unit, e.g. 'MiB'. */
  unit: string;
}

export interface GrowthRow {
  path: string;
  state: string;
  metric: string;
  /** P50 per level, levels ascending (null where the cell has none). */
  p50Ms: (number | null)[];
  /** ms per level unit: the mean of the per-session slopes, with its t interval; null below 2 levels in a session. */
  slope: { value: number; low: number | null; high: number | null; sessions: number } | null;
}

/** The least-squares slope of y on x; null with fewer than 2 distinct x. */
export function leastSquaresSlope(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length < 2 || new Set(xs).size < 2) return null;
  const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
  const my = ys.reduce((s, v) => s + v, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
  });
  return sxy / sxx;
}

export function sweepGrowth(cells: readonly CellStatistics[], sweep: SweepLevels, confidence: number): { levels: number[]; rows: GrowthRow[] } {
  const units = Object.keys(sweep.levels).filter((u) => cells.some((c) => c.cohort === u));
  const levels = units.map((u) => sweep.levels[u]!).sort((a, b) => a - b);
  const unitAt = (level: number): string => units.find((u) => sweep.levels[u] === level)!;
  const keys = [...new Map(cells.filter((c) => units.includes(c.cohort)).map((c) => [`${c.path}\u0000${c.state}\u0000${c.metric}`, c])).values()];
  const rows = keys.map((k): GrowthRow => {
    const at = (level: number) => cells.find((c) => c.cohort === unitAt(level) && c.path === k.path && c.state === k.state && c.metric === k.metric);
    const sessions = [...new Set(levels.flatMap((l) => at(l)?.sessions.map((s) => s.session) ?? []))].sort((a, b) => a - b);
    const perSession = sessions.flatMap((session) => {
      const pts = levels.flatMap((l) => {
        const m = at(l)?.sessions.find((s) => s.session === session)?.p50Ms;
        return m === undefined ? [] : [[l, m] as const];
      });
      const b = leastSquaresSlope(
        pts.map((p) => p[0]),
        pts.map((p) => p[1]),
      );
      return b === null ? [] : [b];
    });
    const t = sessionTInterval(perSession, confidence);
    return {
      path: k.path,
      state: k.state,
      metric: k.metric,
      p50Ms: levels.map((l) => at(l)?.p50Ms ?? null),
      slope: perSession.length
        ? { value: perSession.reduce((s, v) => s + v, 0) / perSession.length, low: t?.low ?? null, high: t?.high ?? null, sessions: perSession.length }
        : null,
    };
  });
  return { levels, rows };
}
