// Pure: host classes from the host canary (issue 43). Machines that report
// the same CPU, vCPUs and kernel still differ: a same-key replicate on one
// with PTI on had every cell ×1.91 and a canary ×2.27 (mem ×5.49, exec ×5.26)
// against the published run. So a class is what the canary says, whatever the
// fingerprint strings say: two runs are on the same host class when every
// canary piece's run median agrees within that piece's run-to-run spread.
//
// The spread of a piece is the sample SD of the log run medians of the runs
// of one class (pooled over the classes given, with its degrees of freedom),
// with a floor (FLOOR_SD) so that a piece timed alike in a few runs does not
// make every later run "another class". Two runs agree on a piece when
// |log a − log b| ≤ t · √2 · sd, t the Student quantile at 1 − ALPHA/2 with
// the spread's degrees of freedom (the normal one without any): a same-class
// pair fails a piece by chance in ALPHA of pairs, about 1% over five pieces,
// however few runs the spread rests on. The price of few runs is a wide
// tolerance: with the published class's 4 runs (3 df, t = 10.2) mem agrees
// within ×1.33 and exec within ×4.9, so the shared replicate (mem ×5.49,
// exec ×5.26) is another class by those two pieces; each run archived on a
// class narrows them.
//
// Classes of a set of runs: single linkage under that agreement, seeded with
// a screen that needs no spread (every piece within SCREEN of the other run),
// then the spread estimated within the screened groups, then the rule.
//
// A screened group can hold two classes that differ by less than the screen
// on every piece: the archive's class C (2026-12-07, two same-key runs, cpu
// 40–41 ms) lies within ×1.5 of class A (four runs, cpu 30.1–30.5 ms). Their
// spread estimated together made cpu look noisy (sd 0.124 where either class
// alone gives about 0.01), and the rule then called A and C one class. So a
// screened group is first split where a piece's log run medians fall into two
// sets of two or more runs with a gap wider than GAP_SPLIT times their pooled
// within-set sd (floored at FLOOR_SD), with five runs or more (three degrees
// of freedom within the sets): a gap that noise of that size does not make. A
// run being placed counts in the spread of a group the split made (its
// distance to the runs it was split from is not in it), never in a group that
// was not split.

import { normalQuantile } from './normal-distribution.js';
import { studentTQuantile } from './student-t.js';

/** Per piece, the run's median (ms) of the canary; a piece the run did not time is absent or null. */
export type CanaryMedians = Record<string, number | null | undefined>;

/** Per piece, the chance that two runs of one class disagree on it. */
export const ALPHA = 0.002;
/** Smallest sd of a piece's log run medians used. */
export const FLOOR_SD = 0.02;
/** The screen that groups runs before any spread is known: every piece within ×1.5. */
export const SCREEN = 1.5;
/**
 * A screened group splits where one piece has a gap this many within-set sds
 * wide. A and C's cpu: 13.6 (at the floor). One class of made-up runs with the
 * published class's noise is cut in 0.25% of groups of 5 runs and 0.05% of 6
 * (4,000 seeded groups each; 2.3% and 0.9% at 8).
 */
export const GAP_SPLIT = 12;

export interface PieceAgreement {
  piece: string;
  /** b / a. */
  ratio: number;
  /** The largest ratio (either way) the piece allows between two runs of one class. */
  tolerance: number;
  within: boolean;
}

export interface ClassComparison {
  same: boolean;
  pieces: PieceAgreement[];
}

const logOf = (m: CanaryMedians, piece: string): number | null => {
  const v = m[piece];
  return typeof v === 'number' && v > 0 ? Math.log(v) : null;
};

const piecesOf = (runs: readonly CanaryMedians[]): string[] => [...new Set(runs.flatMap((r) => Object.keys(r)))].sort();

/** A piece's run-to-run spread: the sd of its log run medians and the degrees of freedom it rests on. */
export interface PieceSpread {
  sd: number;
  df: number;
}

/** Per piece, the sd of the log run medians within each group, pooled over the groups (at least FLOOR_SD). */
export function pieceSpread(groups: readonly (readonly CanaryMedians[])[]): Record<string, PieceSpread> {
  const out: Record<string, PieceSpread> = {};
  for (const piece of piecesOf(groups.flat())) {
    let ss = 0;
    let df = 0;
    for (const g of groups) {
      const logs = g.map((r) => logOf(r, piece)).filter((v): v is number => v !== null);
      if (logs.length < 2) continue;
      const mean = logs.reduce((s, v) => s + v, 0) / logs.length;
      ss += logs.reduce((s, v) => s + (v - mean) ** 2, 0);
      df += logs.length - 1;
    }
    out[piece] = { sd: Math.max(FLOOR_SD, df > 0 ? Math.sqrt(ss / df) : FLOOR_SD), df };
  }
  return out;
}

/** Whether b is on a's host class: every piece both timed within its tolerance. */
export function compareHostClass(a: CanaryMedians, b: CanaryMedians, spread: Record<string, PieceSpread>): ClassComparison {
  const pieces: PieceAgreement[] = [];
  for (const piece of piecesOf([a, b])) {
    const la = logOf(a, piece);
    const lb = logOf(b, piece);
    if (la === null || lb === null) continue;
    const s = spread[piece] ?? { sd: FLOOR_SD, df: 0 };
    const quantile = s.df > 0 ? studentTQuantile(1 - ALPHA / 2, s.df) : normalQuantile(1 - ALPHA / 2);
    const tolerance = Math.exp(quantile * Math.SQRT2 * s.sd);
    pieces.push({ piece, ratio: Math.exp(lb - la), tolerance, within: Math.abs(lb - la) <= Math.log(tolerance) });
  }
  return { same: pieces.length > 0 && pieces.every((p) => p.within), pieces };
}

/**
 * A screened group split at its widest gap, recursively: the piece and place
 * where two sets of two or more runs lie apart by more than GAP_SPLIT times
 * their pooled within-set sd of the log run medians; runs that did not time
 * that piece stay with the upper set.
 */
export function splitAtGaps(group: readonly number[], runs: readonly CanaryMedians[]): number[][] {
  let best: { score: number; lower: Set<number> } | null = null;
  for (const piece of piecesOf(group.map((i) => runs[i]!))) {
    const values = group
      .map((i) => ({ i, v: logOf(runs[i]!, piece) }))
      .filter((x): x is { i: number; v: number } => x.v !== null)
      .sort((x, y) => x.v - y.v);
    const ss = (xs: readonly { v: number }[]): number => {
      const m = xs.reduce((s, x) => s + x.v, 0) / xs.length;
      return xs.reduce((s, x) => s + (x.v - m) ** 2, 0);
    };
    if (values.length < 5) continue;
    for (let k = 2; k <= values.length - 2; k++) {
      const [lower, upper] = [values.slice(0, k), values.slice(k)];
      const sd = Math.max(FLOOR_SD, Math.sqrt((ss(lower) + ss(upper)) / (values.length - 2)));
      const score = (upper[0]!.v - lower[k - 1]!.v) / sd;
      if (score > GAP_SPLIT && (!best || score > best.score)) best = { score, lower: new Set(lower.map((x) => x.i)) };
    }
  }
  if (!best) return [[...group]];
  const lower = best.lower;
  return [
    ...splitAtGaps(
      group.filter((i) => lower.has(i)),
      runs,
    ),
    ...splitAtGaps(
      group.filter((i) => !lower.has(i)),
      runs,
    ),
  ];
}

/** Single-linkage groups of run indices under a pairwise rule. */
function linkage(n: number, same: (i: number, j: number) => boolean): number[][] {
  const group = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (same(i, j)) group[find(i)] = find(j);
  const out = new Map<number, number[]>();
  for (let i = 0; i < n; i++) out.set(find(i), [...(out.get(find(i)) ?? []), i]);
  return [...out.values()];
}

export interface HostClasses {
  /** Groups of run indices, each one class, in the order of their first run. */
  classes: number[][];
  /** The spread the rule used, per piece. */
  spread: Record<string, PieceSpread>;
}

/**
 * The host classes of a set of runs: screened groups, their pooled spread, then the rule. `placing`: the
 * runs being placed (this run, in the analysis), left out of the spread, so that a run's own distance
 * never widens the tolerance it is held to (a run ×1.34 slower on cpu, screened with a class of four
 * runs within 1%, would otherwise make its own spread and join it).
 */
export function hostClasses(runs: readonly CanaryMedians[], placing: readonly number[] = []): HostClasses {
  const screened = linkage(runs.length, (i, j) =>
    piecesOf([runs[i]!, runs[j]!]).every((p) => {
      const a = logOf(runs[i]!, p);
      const b = logOf(runs[j]!, p);
      return a === null || b === null || Math.abs(a - b) <= Math.log(SCREEN);
    }),
  );
  const groups = screened.flatMap((g) => {
    const split = splitAtGaps(g, runs);
    return split.map((s) => ({ members: s, split: split.length > 1 }));
  });
  const spread = pieceSpread(groups.map((g) => g.members.filter((i) => g.split || !placing.includes(i)).map((i) => runs[i]!)));
  const classes = linkage(runs.length, (i, j) => compareHostClass(runs[i]!, runs[j]!, spread).same).sort((x, y) => x[0]! - y[0]!);
  return { classes, spread };
}
