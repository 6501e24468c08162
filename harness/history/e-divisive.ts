// E-divisive means (Matteson & James, "A nonparametric approach for multiple
// change point analysis of multivariate data", JASA 2014), univariate. Pure.
//
// A segment Z[s..e) is split at τ into X = Z[s..τ) and Y = Z[τ..κ), and the
// split maximises the scaled energy divergence
//   Q(τ, κ) = nm/(n+m) · ( 2/(nm) Σ|x−y|^α − 2/(n(n−1)) Σ_{i<k}|x_i−x_k|^α − 2/(m(m−1)) Σ_{j<k}|y_j−y_k|^α )
// over τ and κ (κ may end before e, as in the paper and R's energy::e.divisive).
// Segments are split hierarchically: each step takes the best split of all
// current segments and keeps it only when a permutation test finds it
// significant: the observations are permuted within each current segment
// `permutations` times, the best statistic recomputed, and
//   p = (1 + #{permuted ≥ observed}) / (1 + permutations);
// the search stops at the first split with p > significance.
//
// Assumptions, as the method makes them: observations are independent, and
// exchangeable within a segment (identically distributed between change
// points); the α-th absolute moment exists (α = 1: a finite mean). It detects
// any change in distribution, not only in the mean. It needs at least
// `minSize` observations on each side of a split (2: the within-sample term
// needs a pair). `boundaries`, when given, are the only indices a segment may
// be split at (history uses the first observation of each run, so sessions of
// one run are never split apart); the permutation still moves single
// observations.
import { seededRandom, shuffled } from '../stats/seeded-random.js';

export interface EDivisiveOptions {
  /** Significance level of the permutation test (default 0.05). */
  significance?: number;
  /** Permutations per test (default 199, as R's e.divisive). */
  permutations?: number;
  /** Minimum observations on each side of a split (default 2, at least 2). */
  minSize?: number;
  /** Exponent α in (0, 2) of the distances (default 1). */
  alpha?: number;
  /** Indices a split may fall at (the first index of the later segment); default every index. */
  boundaries?: readonly number[];
  seed?: string | number;
}

export interface EDivisiveChange {
  /** Index of the first observation after the change. */
  index: number;
  /** The divergence Q of the accepted split. */
  statistic: number;
  pValue: number;
}

export interface EDivisiveResult {
  /** Accepted change points, sorted by index. */
  changes: EDivisiveChange[];
  /** The first rejected split (its p-value exceeded the level), if any candidate was left. */
  rejected: EDivisiveChange | null;
}

export interface BestSplit {
  tau: number;
  kappa: number;
  statistic: number;
}

/** The best split of z[start..end) (exclusive end) under the distance matrix `d`, or null when none fits. */
export function bestSplit(
  d: readonly Float64Array[],
  order: readonly number[],
  start: number,
  end: number,
  minSize: number,
  allowed: (i: number) => boolean,
): BestSplit | null {
  let best: BestSplit | null = null;
  const dist = (i: number, j: number): number => d[order[i]!]![order[j]!]!;
  for (let tau = start + minSize; tau <= end - minSize; tau++) {
    if (!allowed(tau)) continue;
    const n = tau - start;
    let withinX = 0;
    for (let i = start; i < tau; i++) for (let k = i + 1; k < tau; k++) withinX += dist(i, k);
    let between = 0;
    let withinY = 0;
    for (let kappa = tau + 1; kappa <= end; kappa++) {
      // add observation kappa-1 to Y
      const j = kappa - 1;
      for (let i = start; i < tau; i++) between += dist(i, j);
      for (let k = tau; k < j; k++) withinY += dist(k, j);
      const m = kappa - tau;
      if (m < minSize || (kappa < end && !allowed(kappa))) continue;
      const e = (2 * between) / (n * m) - (2 * withinX) / (n * (n - 1)) - (2 * withinY) / (m * (m - 1));
      const q = ((n * m) / (n + m)) * e;
      if (!best || q > best.statistic + 1e-12) best = { tau, kappa, statistic: q };
    }
  }
  return best;
}

function bestOverSegments(
  d: readonly Float64Array[],
  order: readonly number[],
  cuts: readonly number[],
  minSize: number,
  allowed: (i: number) => boolean,
): BestSplit | null {
  let best: BestSplit | null = null;
  for (let s = 0; s + 1 < cuts.length; s++) {
    const b = bestSplit(d, order, cuts[s]!, cuts[s + 1]!, minSize, allowed);
    if (b && (!best || b.statistic > best.statistic)) best = b;
  }
  return best;
}

export function eDivisive(values: readonly number[], options: EDivisiveOptions = {}): EDivisiveResult {
  const significance = options.significance ?? 0.05;
  const permutations = options.permutations ?? 199;
  const minSize = Math.max(2, options.minSize ?? 2);
  const alpha = options.alpha ?? 1;
  if (!(alpha > 0 && alpha < 2)) throw new Error(`bug: e-divisive alpha must be in (0, 2), got ${alpha}`);
  if (!values.every(Number.isFinite)) throw new Error('bug: e-divisive needs finite values');
  const t = values.length;
  const allowedSet = options.boundaries ? new Set(options.boundaries) : null;
  const allowed = (i: number): boolean => !allowedSet || allowedSet.has(i);
  const d = values.map((x) => Float64Array.from(values, (y) => Math.abs(x - y) ** alpha));
  const identity = values.map((_, i) => i);
  const random = seededRandom(options.seed ?? 'e-divisive');
  const cuts = [0, t];
  const changes: EDivisiveChange[] = [];
  for (;;) {
    const observed = bestOverSegments(d, identity, cuts, minSize, allowed);
    if (!observed) return { changes, rejected: null };
    let atLeast = 0;
    for (let r = 0; r < permutations; r++) {
      const order: number[] = [];
      for (let s = 0; s + 1 < cuts.length; s++) order.push(...shuffled(identity.slice(cuts[s]!, cuts[s + 1]!), random));
      const permuted = bestOverSegments(d, order, cuts, minSize, allowed);
      if (permuted && permuted.statistic >= observed.statistic - 1e-12) atLeast++;
    }
    const pValue = (1 + atLeast) / (1 + permutations);
    const change = { index: observed.tau, statistic: observed.statistic, pValue };
    if (pValue > significance) return { changes: changes.sort((a, b) => a.index - b.index), rejected: change };
    changes.push(change);
    cuts.push(observed.tau);
    cuts.sort((a, b) => a - b);
  }
}
