// Ratio of the medians of two groups of one cell, numerator / denominator,
// with a percentile bootstrap interval (two-sample: each group resampled on
// its own, so group sizes stay fixed and no resample lacks a group).
//
// A value is one launch, and a cell holds one launch per round, so drawing
// values is drawing rounds. Each of B resamples draws, with the seeded
// generator, n_num indices into the numerator group (randomInt, in order),
// then n_den indices into the denominator group, and takes
// median(drawn numerator) / median(drawn denominator), type 7. The interval
// is the type-7 percentiles at (1-c)/2 and (1+c)/2 of the B ratios. The
// observed ratio is the same statistic on the groups as they are.
import { median } from './quantile.js';
import { randomInt, seededRandom } from './seeded-random.js';
import { selectQuantile } from './select-quantile.js';

export interface RatioInterval {
  ratio: number;
  low: number;
  high: number;
  resamples: number;
  confidence: number;
}

export interface RatioOptions {
  resamples: number;
  confidence: number;
  seed: string | number;
}

/** null when a group is empty or a median is not positive (the ratio is undefined). */
export function ratioOfMedians(numerator: readonly number[], denominator: readonly number[], o: RatioOptions): RatioInterval | null {
  if (numerator.length === 0 || denominator.length === 0) return null;
  const observedDen = median(denominator);
  const observedNum = median(numerator);
  if (!(observedDen > 0) || !(observedNum > 0)) return null;
  const random = seededRandom(o.seed);
  const num = new Float64Array(numerator.length);
  const den = new Float64Array(denominator.length);
  const ratios = new Float64Array(o.resamples);
  for (let s = 0; s < o.resamples; s++) {
    for (let i = 0; i < num.length; i++) num[i] = numerator[randomInt(random, numerator.length)]!;
    for (let i = 0; i < den.length; i++) den[i] = denominator[randomInt(random, denominator.length)]!;
    ratios[s] = sortedMedian(num.sort()) / sortedMedian(den.sort());
  }
  const tail = (1 - o.confidence) / 2;
  return {
    ratio: observedNum / observedDen,
    low: selectQuantile(ratios, tail),
    high: selectQuantile(ratios, 1 - tail),
    resamples: o.resamples,
    confidence: o.confidence,
  };
}

function sortedMedian(xs: Float64Array): number {
  const h = (xs.length - 1) / 2;
  const lo = Math.floor(h);
  return xs[lo]! + (h - lo) * (xs[Math.min(lo + 1, xs.length - 1)]! - xs[lo]!);
}

/** True when the interval lies wholly above or wholly below 1. */
export function excludesOne(r: Pick<RatioInterval, 'low' | 'high'>): boolean {
  return r.low > 1 || r.high < 1;
}
