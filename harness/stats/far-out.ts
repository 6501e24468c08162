// Far-out values: Tukey's outer fences. A value is far out when it lies more
// than `k` interquartile ranges below the first quartile or above the third
// (k = 3, Tukey's "far out"; quartiles by the one quantile definition,
// Hyndman & Fan type 7, NumPy's 'linear'). A far-out value is named, never
// dropped: it is what a P50 or a P90 of the side does not show. Pure.
import { quantileSorted } from './quantile.js';

/** Tukey's far-out multiple of the interquartile range. */
export const farOutIqr = 3;

export interface FarOutFences {
  q1: number;
  q3: number;
  low: number;
  high: number;
}

/** The fences of ascending-sorted values; null with fewer than 4 values (no quartiles worth the name). */
export function farOutFences(sorted: readonly number[], k = farOutIqr): FarOutFences | null {
  if (sorted.length < 4) return null;
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const iqr = q3 - q1;
  return { q1, q3, low: q1 - k * iqr, high: q3 + k * iqr };
}

/** Whether a value lies outside the fences. */
export const isFarOut = (v: number, f: FarOutFences | null): boolean => f !== null && (v < f.low || v > f.high);
