// The one quantile definition used everywhere: linear interpolation between
// order statistics, Hyndman & Fan type 7 (R's default, NumPy's 'linear').
import { selectQuantile } from './select-quantile.js';

/** Quantile p in [0,1] of an ascending-sorted array. NaN for an empty array. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sorted[0]!;
  if (p >= 1) return sorted[n - 1]!;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, n - 1)]!;
  return a + frac * (b - a);
}

/**
 * Of unsorted values. By selection on a typed copy (select-quantile.ts, the same
 * order statistics) when every value is finite and none is -0, where sorting
 * decides nothing the selection does not; else by the plain sort.
 */
export function quantile(values: readonly number[], p: number): number {
  const n = values.length;
  if (!(p >= 0 && p <= 1)) return sortedQuantile(values, p);
  const copy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) || Object.is(v, -0)) return sortedQuantile(values, p);
    copy[i] = v;
  }
  return selectQuantile(copy, p);
}

function sortedQuantile(values: readonly number[], p: number): number {
  return quantileSorted(
    [...values].sort((x, y) => x - y),
    p,
  );
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
