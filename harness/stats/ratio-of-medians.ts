// Ratio of the medians of two groups of one cell, numerator / denominator,
// with a percentile bootstrap interval (two-sample: each group resampled on
// its own, so group sizes stay fixed and no resample lacks a group).
//
// A value is one launch, and a cell holds one launch per round, so drawing
// values is drawing rounds. Each group is sorted ascending once. Each of B
// resamples draws, with the seeded generator, n_num indices into the sorted
// numerator group (randomInt, in order), then n_den indices into the sorted
// denominator group, and takes
// median(drawn numerator) / median(drawn denominator), type 7. The interval
// is the type-7 percentiles at (1-c)/2 and (1+c)/2 of the B ratios. The
// observed ratio is the same statistic on the groups as they are.
import { median } from './quantile.js';
import { seededRandom } from './seeded-random.js';
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
  const num = countedGroup(numerator);
  const den = countedGroup(denominator);
  const ratios = new Float64Array(o.resamples);
  for (let s = 0; s < o.resamples; s++) {
    // draws in the documented order: every numerator index, then every denominator index
    draw(num, random);
    draw(den, random);
    ratios[s] = countedMedian(num) / countedMedian(den);
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

/**
 * A group sorted once: a resample is a count per sorted value, and its
 * median a walk over the counts, O(n) per resample instead of sorting the
 * drawn values.
 */
interface CountedGroup {
  sorted: Float64Array;
  counts: Int32Array;
}

function countedGroup(values: readonly number[]): CountedGroup {
  return { sorted: Float64Array.from(values).sort(), counts: new Int32Array(values.length) };
}

/** n draws with replacement, each an index into the sorted group ((random() * n) | 0 is randomInt for n < 2^31). */
function draw(g: CountedGroup, random: () => number): void {
  const n = g.counts.length;
  g.counts.fill(0);
  for (let i = 0; i < n; i++) g.counts[(random() * n) | 0]!++;
}

/** Type-7 median of the multiset `counts` over `sorted` (as many draws as values). */
function countedMedian(g: CountedGroup): number {
  const h = (g.sorted.length - 1) / 2;
  const lo = Math.floor(h);
  const frac = h - lo;
  let seen = 0;
  let rank = 0;
  // the value at 0-based position lo of the drawn multiset, then the one after it
  while (seen + g.counts[rank]! <= lo) seen += g.counts[rank++]!;
  const a = g.sorted[rank]!;
  if (frac === 0) return a;
  if (seen + g.counts[rank]! > lo + 1) return a;
  rank++;
  while (g.counts[rank] === 0) rank++;
  return a + frac * (g.sorted[rank]! - a);
}

/** True when the interval lies wholly above or wholly below 1. */
export function excludesOne(r: Pick<RatioInterval, 'low' | 'high'>): boolean {
  return r.low > 1 || r.high < 1;
}
