// Pure: how well a published run's cells predict another host class's, with
// and without that host's canary (issue 43 item 4), validated leave one class
// out rather than assumed.
//
// For a held-out class T and a reference class R among the others, each cell
// shared by both (its P50) is predicted three ways:
//   unadjusted:     ln ŷ_T = ln y_R
//   canary-scaled:  ln ŷ_T = ln y_R + ln(g_T / g_R), g the geometric mean of
//                   the canary pieces' run medians (compare's "canary ×…")
//   fitted:         ln ŷ_T = ln y_R + β ln(g_T / g_R), one elasticity β fitted
//                   by least squares through the origin over the cells of
//                   every pair of the other classes (T never enters the fit);
//                   with fewer than two other classes there is nothing to fit.
// The error of a way is the median over cells of |ln y_T − ln ŷ_T|, given as
// a factor exp(·): ×1.00 is exact. Classes are one run each (the newest of its
// class), so an error here also holds that run's own sampling noise.
import { median } from './quantile.js';

/** One run standing for its host class: its cells' P50 (ms) by key, and its canary pieces' run medians (ms). */
export interface ClassRun {
  id: string;
  cells: ReadonlyMap<string, number>;
  canary: Readonly<Record<string, number | null | undefined>>;
}

export interface TransferError {
  /** The held-out class's run. */
  test: string;
  /** The run its cells are predicted from. */
  reference: string;
  /** Cells both runs have. */
  cells: number;
  /** g_T / g_R. */
  canaryRatio: number;
  /** Median |log error| as a factor, per way of predicting. */
  unadjusted: number;
  canaryScaled: number;
  /** The fitted way and its β; null with fewer than two other classes. */
  fitted: number | null;
  elasticity: number | null;
}

/** The geometric mean over the pieces both canaries timed of b's median over a's; null when they share none. */
export function canaryFactor(a: ClassRun['canary'], b: ClassRun['canary']): number | null {
  const logs: number[] = [];
  for (const [piece, x] of Object.entries(a)) {
    const y = b[piece];
    if (typeof x === 'number' && typeof y === 'number' && x > 0 && y > 0) logs.push(Math.log(y / x));
  }
  return logs.length ? Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length) : null;
}

const sharedKeys = (a: ClassRun, b: ClassRun): string[] => [...a.cells.keys()].filter((k) => b.cells.has(k)).sort();

/** β of ln(y_j / y_i) = β ln(g_j / g_i) over every pair of the runs and their shared cells; null without a pair whose canaries differ. */
export function fitElasticity(runs: readonly ClassRun[]): number | null {
  let xy = 0;
  let xx = 0;
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) {
      const g = canaryFactor(runs[i]!.canary, runs[j]!.canary);
      if (g === null) continue;
      const x = Math.log(g);
      for (const k of sharedKeys(runs[i]!, runs[j]!)) {
        xy += x * Math.log(runs[j]!.cells.get(k)! / runs[i]!.cells.get(k)!);
        xx += x * x;
      }
    }
  return xx > 0 ? xy / xx : null;
}

/** Every (held-out class, reference class) pair of the runs, one run per class. */
export function leaveOneClassOut(runs: readonly ClassRun[]): TransferError[] {
  const out: TransferError[] = [];
  for (const test of runs) {
    const others = runs.filter((r) => r !== test);
    const beta = others.length >= 2 ? fitElasticity(others) : null;
    for (const ref of others) {
      const g = canaryFactor(ref.canary, test.canary);
      const keys = sharedKeys(ref, test);
      if (g === null || !keys.length) continue;
      const errors = (shift: number): number => Math.exp(median(keys.map((k) => Math.abs(Math.log(test.cells.get(k)!) - Math.log(ref.cells.get(k)!) - shift))));
      out.push({
        test: test.id,
        reference: ref.id,
        cells: keys.length,
        canaryRatio: g,
        unadjusted: errors(0),
        canaryScaled: errors(Math.log(g)),
        fitted: beta === null ? null : errors(beta * Math.log(g)),
        elasticity: beta,
      });
    }
  }
  return out;
}

/** A class run from a published statistics.csv (its Ready P50s, keyed cohort|path|state) and run.json's canary. */
export function classRunOf(
  id: string,
  statistics: readonly Record<string, string>[],
  canary: { pieces: readonly { piece: string; medianMs: number | null }[] } | null,
  metric = 'ready',
): ClassRun {
  const cells = new Map<string, number>();
  for (const r of statistics) {
    const p50 = Number(r['p50']);
    if (r['metric'] === metric && r['p50'] !== '' && Number.isFinite(p50) && p50 > 0) cells.set(`${r['cohort']}|${r['path']}|${r['state']}`, p50);
  }
  return { id, cells, canary: Object.fromEntries((canary?.pieces ?? []).map((p) => [p.piece, p.medianMs])) };
}
