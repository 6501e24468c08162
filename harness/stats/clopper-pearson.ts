// Clopper-Pearson ("exact") interval of a binomial proportion: the share of
// `trials` in which an event happened `successes` times.
//   low  = Beta quantile (1-c)/2     of Beta(x, n - x + 1)   (0 when x = 0)
//   high = Beta quantile (1+c)/2     of Beta(x + 1, n - x)   (1 when x = n)
// The Beta quantile is found by bisection on the regularized incomplete beta
// function of student-t.ts. Used for the rates of "detected" in A/A runs and
// for the coverage of simulated intervals (docs/STATISTICS.md).
import { incompleteBeta } from './student-t.js';

export interface ProportionInterval {
  successes: number;
  trials: number;
  /** successes / trials; NaN with no trial. */
  rate: number;
  low: number;
  high: number;
  confidence: number;
}

/** The p-quantile of Beta(a, b), by bisection on I_x(a, b) to about 1e-12. */
export function betaQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-13; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function clopperPearson(successes: number, trials: number, confidence = 0.95): ProportionInterval {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || trials < successes) {
    throw new Error(`clopperPearson needs integers 0 <= successes <= trials, got ${successes} of ${trials}`);
  }
  const tail = (1 - confidence) / 2;
  if (trials === 0) return { successes, trials, rate: Number.NaN, low: 0, high: 1, confidence };
  const low = successes === 0 ? 0 : betaQuantile(tail, successes, trials - successes + 1);
  const high = successes === trials ? 1 : betaQuantile(1 - tail, successes + 1, trials - successes);
  return { successes, trials, rate: successes / trials, low, high, confidence };
}
