// A distribution-free confidence interval for a median: the order statistics
// x(l) and x(n − l + 1) of the sorted values, l the largest rank with
// P(B ≤ l − 1) ≤ (1 − confidence) / 2 for B ~ Binomial(n, 1/2) (the sign-test
// interval; coverage at least `confidence` for any continuous distribution).
// Below the n where such an l exists (n ≤ 5 at 95%) the interval is the range
// of the values and `exact` is false. Pure.
import { logGamma } from './student-t.js';

export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** 1-based rank of the lower bound. */
  rank: number;
  /** The interval reaches the confidence asked for (false: too few values, it is the range). */
  exact: boolean;
}

/** P(B ≤ k) for B ~ Binomial(n, 1/2). */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logGamma(n + 1) - logGamma(i + 1) - logGamma(n - i + 1) - n * Math.LN2);
  return Math.min(1, sum);
}

export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval | null {
  const n = values.length;
  if (n === 0) return null;
  const x = [...values].sort((a, b) => a - b);
  const mid = n % 2 ? x[(n - 1) / 2]! : (x[n / 2 - 1]! + x[n / 2]!) / 2;
  const tail = (1 - confidence) / 2;
  let rank = 0;
  while (rank + 1 <= Math.floor((n + 1) / 2) && binomialHalfCdf(rank, n) <= tail) rank++;
  if (rank === 0) return { median: mid, low: x[0]!, high: x[n - 1]!, rank: 1, exact: false };
  return { median: mid, low: x[rank - 1]!, high: x[n - rank]!, rank, exact: true };
}
