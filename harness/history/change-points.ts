// Change points of one cell over a series of runs. Pure.
//
// The observations are the per-session medians of the cell, run after run
// (so replication within a run counts: a run of 3 sessions is 3 points), and
// E-divisive means (e-divisive.ts) may split them only between runs. A change
// found at significance level SIGNIFICANCE (permutation test, PERMUTATIONS
// permutations, seeded by the cell) is reported only when the pooled
// between-session intervals of its two sides separate: Student's t interval
// (95%, K − 1 degrees of freedom) of the mean of the session medians of the
// runs from the previous change to this one, and of those from this one to
// the next, do not overlap. A side needs at least 3 sessions for its
// interval; with fewer the change is not reported. The ratio is after/before
// of the sides' geometric means with a Welch interval on the logarithms
// (log-ratio-interval.ts). A significant change whose sides do not separate
// is dropped, the least significant first, and the sides of the others are
// taken again without it (so one outlying run between two changes does not
// hide the larger change next to it).
//
// Assumptions: sessions are independent and, between change points,
// identically distributed (E-divisive's exchangeability); the runs of the
// series are in the order given. A cell missing from a run is left out of
// that cell's series (its runs keep their numbers).
import { sessionTInterval } from '../stats/session-t-interval.js';
import { eDivisive, type EDivisiveChange } from './e-divisive.js';
import { logRatioInterval } from './log-ratio-interval.js';

export const SIGNIFICANCE = 0.05;
export const PERMUTATIONS = 499;
export const CONFIDENCE = 0.95;

export interface SideSummary {
  /** 1-based run numbers of the side's first and last run. */
  fromRun: number;
  toRun: number;
  sessions: number;
  mean: number;
  low: number | null;
  high: number | null;
}

export interface CellChange {
  /** 1-based number of the first run after the change. */
  run: number;
  pValue: number;
  statistic: number;
  before: SideSummary;
  after: SideSummary;
  ratio: number;
  low: number;
  high: number;
  /** Significant and the sides' intervals separate. */
  reported: boolean;
  /** Why a significant change is not reported. */
  why: string | null;
}

/** `perRun[i]` holds run i+1's session medians (empty when the cell is not in that run). */
export function cellChanges(perRun: readonly (readonly number[])[], seed: string): CellChange[] {
  const values: number[] = [];
  const runOf: number[] = [];
  const boundaries: number[] = [];
  perRun.forEach((medians, i) => {
    if (!medians.length) return;
    if (values.length) boundaries.push(values.length);
    for (const v of medians) {
      values.push(v);
      runOf.push(i + 1);
    }
  });
  if (values.length < 4 || boundaries.length === 0) return [];
  const found = eDivisive(values, { significance: SIGNIFICANCE, permutations: PERMUTATIONS, minSize: 2, boundaries, seed }).changes;
  const evaluate = (kept: readonly EDivisiveChange[]): CellChange[] => {
    const cuts = [0, ...kept.map((c) => c.index), values.length];
    return kept.map((c, i) => judge(c, values.slice(cuts[i]!, cuts[i + 1]!), values.slice(cuts[i + 1]!, cuts[i + 2]!), cuts[i]!, cuts[i + 1]!));
  };
  const judge = (c: EDivisiveChange, before: number[], after: number[], from: number, at: number): CellChange => {
    const side = (v: number[], start: number): SideSummary => {
      const t = sessionTInterval(v, CONFIDENCE);
      return {
        fromRun: runOf[start]!,
        toRun: runOf[start + v.length - 1]!,
        sessions: v.length,
        mean: v.reduce((s, x) => s + x, 0) / v.length,
        low: t?.low ?? null,
        high: t?.high ?? null,
      };
    };
    const b = side(before, from);
    const a = side(after, at);
    const r = logRatioInterval(before, after, CONFIDENCE);
    let why: string | null = null;
    if (b.low === null || a.low === null) why = 'fewer than 3 sessions on one side: no between-session interval';
    else if (!(b.high! < a.low! || a.high! < b.low!)) why = 'the intervals of the two sides overlap';
    return {
      run: runOf[c.index]!,
      pValue: c.pValue,
      statistic: c.statistic,
      before: b,
      after: a,
      ratio: r?.ratio ?? a.mean / b.mean,
      low: r?.low ?? Number.NaN,
      high: r?.high ?? Number.NaN,
      reported: why === null,
      why,
    };
  };
  // A significant change whose sides do not separate is dropped (the least significant first), and the
  // sides of the others are taken again without it, until every change left separates.
  let kept = [...found];
  const dropped: CellChange[] = [];
  for (;;) {
    const judged = evaluate(kept);
    const failing = judged.map((j, i) => ({ j, i })).filter((x) => !x.j.reported);
    if (!failing.length) return [...judged, ...dropped].sort((x, y) => x.run - y.run);
    const worst = failing.reduce((w, x) => (x.j.pValue > w.j.pValue || (x.j.pValue === w.j.pValue && x.i > w.i) ? x : w));
    dropped.push(worst.j);
    kept = kept.filter((_, i) => i !== worst.i);
  }
}
