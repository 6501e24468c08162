// A distribution-free confidence interval for the p-quantile of a sample, and
// the smallest sample that supports one: the order statistics x(l) and x(u),
// l the largest rank with P(B ≤ l − 1) ≤ α/2 and u the smallest with
// P(B ≤ u − 1) ≥ 1 − α/2, B ~ Binomial(n, p) counting the values below the
// quantile, so that P(l ≤ B ≤ u − 1) ≥ 1 − α for any continuous
// distribution (Hahn & Meeker, "Statistical Intervals", 1991, §5.2).
// When no such l ≥ 1 or u ≤ n exists, the sample cannot bound the quantile on
// that side at this confidence: a P95 needs n ≥ 72 at 95%, a P99 n ≥ 368, a
// median n ≥ 6. A tail percentile of fewer values is not reported (never
// trimmed first, never extrapolated). Pure.
import { incompleteBeta } from './student-t.js';
import { quantileSorted } from './quantile.js';

export interface QuantileInterval {
  p: number;
  /** Hyndman-Fan type 7, as every quantile of the reports. */
  estimate: number;
  low: number;
  high: number;
  /** 1-based ranks of the bounds in the sorted sample. */
  lowRank: number;
  highRank: number;
  n: number;
}

/** P(B ≤ k) for B ~ Binomial(n, p): I_{1−p}(n − k, k + 1). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  return incompleteBeta(1 - p, n - k, k + 1);
}

function ranks(n: number, p: number, confidence: number): { lowRank: number; highRank: number } | null {
  const tail = (1 - confidence) / 2;
  // largest l with F(l − 1) ≤ tail; F is increasing in l
  let lowRank = 0;
  while (lowRank + 1 <= n && binomialCdf(lowRank, n, p) <= tail) lowRank++;
  // smallest u with F(u − 1) ≥ 1 − tail
  let highRank = n + 1;
  for (let u = 1; u <= n; u++) {
    if (binomialCdf(u - 1, n, p) >= 1 - tail) {
      highRank = u;
      break;
    }
  }
  return lowRank >= 1 && highRank <= n && lowRank < highRank ? { lowRank, highRank } : null;
}

/** The interval of the p-quantile of `values`, or null when n is too small to bound it on both sides. */
export function quantileInterval(values: readonly number[], p: number, confidence = 0.95): QuantileInterval | null {
  if (!(p > 0 && p < 1)) throw new Error(`quantileInterval needs 0 < p < 1, got ${p}`);
  const n = values.length;
  if (n === 0 || !values.every(Number.isFinite)) return null;
  const r = ranks(n, p, confidence);
  if (!r) return null;
  const x = [...values].sort((a, b) => a - b);
  return { p, estimate: quantileSorted(x, p), low: x[r.lowRank - 1]!, high: x[r.highRank - 1]!, lowRank: r.lowRank, highRank: r.highRank, n };
}

/** The smallest n with such an interval: (1 − p)^n ≤ α/2 and p^n ≤ α/2 (the extreme ranks 1 and n then cover). */
export function minSupportedN(p: number, confidence = 0.95): number {
  const tail = (1 - confidence) / 2;
  const need = (q: number): number => Math.ceil(Math.log(tail) / Math.log(q) - 1e-12);
  return Math.max(need(p), need(1 - p), 2);
}
