// Pure: the per-session values a sequential decision looks at: per session
// (ascending), the mean over its complete rounds of log a - log b of one
// metric column, for one comparison (unit, condition, two arms). Only formal,
// ok rows with a positive value count; a session without a round holding both
// arms gives no value. The sampling side (experiment/adaptive-plan.ts) and
// the analysis of an adaptive run (comparison/sequential-analysis.ts) read the same.
import { median } from '../stats/quantile.js';

/** The part of a sample row read here. */
export interface LogRatioRow {
  session: number;
  cohort: string;
  path: string;
  state: string;
  round: number;
  phase?: unknown;
  ok?: unknown;
  [column: string]: unknown;
}

export interface LogRatioComparison {
  cohort: string;
  state: string;
  a: string;
  b: string;
}

/** Per session (ascending, sessions up to `upTo`) the mean log ratio a / b of `metric`; sessions without a pair of both are left out. */
export function sessionLogRatios(rows: readonly LogRatioRow[], c: LogRatioComparison, metric: string, upTo: number = Infinity): number[] {
  const bySession = new Map<number, Map<number, { a?: number; b?: number }>>();
  for (const r of rows) {
    if (r.session > upTo || r.cohort !== c.cohort || r.state !== c.state || (r.path !== c.a && r.path !== c.b)) continue;
    if ((r.phase !== undefined && r.phase !== 'formal') || r.ok === false) continue;
    const v = r[metric];
    if (typeof v !== 'number' || !(v > 0)) continue;
    const rounds = bySession.get(r.session) ?? new Map<number, { a?: number; b?: number }>();
    const p = rounds.get(r.round) ?? {};
    p[r.path === c.a ? 'a' : 'b'] = Math.log(v);
    rounds.set(r.round, p);
    bySession.set(r.session, rounds);
  }
  const out: number[] = [];
  for (const session of [...bySession.keys()].sort((x, y) => x - y)) {
    const d = [...bySession.get(session)!.values()].filter((p) => p.a !== undefined && p.b !== undefined).map((p) => p.a! - p.b!);
    if (d.length) out.push(d.reduce((s, v) => s + v, 0) / d.length);
  }
  return out;
}

/** The median of b's metric over the same rows (formal, ok, positive, sessions up to `upTo`): the reference of an absolute margin; null without one. */
export function referenceMedian(rows: readonly LogRatioRow[], c: LogRatioComparison, metric: string, upTo: number = Infinity): number | null {
  const values: number[] = [];
  for (const r of rows) {
    if (r.session > upTo || r.cohort !== c.cohort || r.state !== c.state || r.path !== c.b) continue;
    if ((r.phase !== undefined && r.phase !== 'formal') || r.ok === false) continue;
    const v = r[metric];
    if (typeof v === 'number' && v > 0) values.push(v);
  }
  return values.length ? median(values) : null;
}
