// Pure: how each cell's session medians follow the host canary (issue 28
// item 1: "for each cell, say how its session medians follow the canary").
//
// The canary's level in a session is the mean, over its pieces, of
// ln(session median / the run's median of that piece): 0 in a session like
// the run, +0.1 in one about ×1.105 slower. Per cell, the least-squares slope
// of ln(the cell's session median) on that level, over the sessions that have
// both, with a Student's t interval on n − 2 degrees of freedom, and the
// correlation. A slope of 1: the cell moves with the host as the canary does;
// 0: the cell does not follow it. With fewer than MIN_SESSIONS sessions, or a
// canary that did not move between sessions, there is nothing to fit and the
// cell says so ("cannot tell with 2 sessions").
import type { AnalysisResult } from './analysis-result.js';
import type { CanaryResult } from './canary-statistics.js';
import { studentTQuantile } from '../stats/student-t.js';

/** A slope needs this many sessions: with 2 the line goes through both points, with no spread left to judge it. */
export const MIN_SESSIONS = 3;

export interface CanaryLevel {
  session: number;
  /** Mean over pieces of ln(session median / run median). */
  level: number;
}

export interface CellTracking {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  /** Sessions with both a cell median and a canary level. */
  sessions: number;
  /** null: cannot tell (see `why`). */
  slope: number | null;
  low: number | null;
  high: number | null;
  correlation: number | null;
  /** follows: the interval excludes 0 and the slope is positive; against: excludes 0, negative; not resolved: includes 0. */
  reading: 'follows' | 'against' | 'not resolved' | 'cannot tell';
  why: string | null;
}

export interface CanaryTracking {
  confidence: number;
  levels: CanaryLevel[];
  cells: CellTracking[];
}

/** The canary's level per session (sessions with at least one piece measured there and over the run). */
export function canaryLevels(c: CanaryResult): CanaryLevel[] {
  return c.sessions.flatMap((s) => {
    const logs = s.pieces.flatMap((p) => {
      const run = c.run.find((r) => r.piece === p.piece)?.medianMs;
      return p.medianMs !== null && p.medianMs > 0 && typeof run === 'number' && run > 0 ? [Math.log(p.medianMs / run)] : [];
    });
    return logs.length ? [{ session: s.session, level: logs.reduce((a, x) => a + x, 0) / logs.length }] : [];
  });
}

const mean = (v: readonly number[]): number => v.reduce((a, x) => a + x, 0) / v.length;

/** The slope of y on x with its t interval and correlation; null slope with the reason when it cannot be fitted. */
export function trackingFit(
  x: readonly number[],
  y: readonly number[],
  confidence: number,
): Pick<CellTracking, 'slope' | 'low' | 'high' | 'correlation' | 'reading' | 'why'> {
  const n = x.length;
  const none = (why: string) => ({ slope: null, low: null, high: null, correlation: null, reading: 'cannot tell' as const, why });
  if (n < MIN_SESSIONS) return none(`cannot tell with ${n} session${n === 1 ? '' : 's'}`);
  const mx = mean(x);
  const my = mean(y);
  const sxx = x.reduce((a, v) => a + (v - mx) ** 2, 0);
  const syy = y.reduce((a, v) => a + (v - my) ** 2, 0);
  const sxy = x.reduce((a, v, i) => a + (v - mx) * (y[i]! - my), 0);
  if (!(sxx > 1e-12)) return none(`cannot tell: the canary did not move between the ${n} sessions`);
  const slope = sxy / sxx;
  const rss = Math.max(0, syy - slope * sxy);
  const se = Math.sqrt(rss / (n - 2) / sxx);
  const half = studentTQuantile((1 + confidence) / 2, n - 2) * se;
  const low = slope - half;
  const high = slope + half;
  const correlation = syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
  return { slope, low, high, correlation, reading: low > 0 ? 'follows' : high < 0 ? 'against' : 'not resolved', why: null };
}

/** Per cell of `metric` (Ready by default), how its session medians follow the canary; null without a canary. */
export function canaryTracking(a: Pick<AnalysisResult, 'cells' | 'canary'>, confidence = 0.95, metric = 'ready'): CanaryTracking | null {
  if (!a.canary) return null;
  const levels = canaryLevels(a.canary);
  const at = new Map(levels.map((l) => [l.session, l.level]));
  const cells = a.cells
    .filter((c) => c.metric === metric)
    .map((c): CellTracking => {
      const both = c.sessions.filter((s) => at.has(s.session) && s.p50Ms > 0);
      const fit = trackingFit(
        both.map((s) => at.get(s.session)!),
        both.map((s) => Math.log(s.p50Ms)),
        confidence,
      );
      return { cohort: c.cohort, path: c.path, state: c.state, metric: c.metric, sessions: both.length, ...fit };
    });
  return { confidence, levels, cells };
}
