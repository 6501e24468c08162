// Pure: ratio of medians a/b over paired rounds, with a percentile bootstrap
// interval. The resampling unit is a round holding a value of both a and b;
// each resample draws as many rounds as there are, with replacement (seeded),
// and takes median(a over drawn rounds) / median(b over drawn rounds).
import { median, quantile } from './quantile.js';
import { randomInt, seededRandom } from './seeded-random.js';

export interface RatioResult {
  rounds: number;
  ratio: number | null;
  low: number | null;
  high: number | null;
  medianA: number | null;
  medianB: number | null;
}

export function pairedMedianRatio(
  pairs: readonly { a: number; b: number }[],
  opts: { resamples: number; confidence: number; seed: string | number },
): RatioResult {
  const n = pairs.length;
  if (n === 0) return { rounds: 0, ratio: null, low: null, high: null, medianA: null, medianB: null };
  const medianA = median(pairs.map((p) => p.a));
  const medianB = median(pairs.map((p) => p.b));
  const random = seededRandom(opts.seed);
  const ratios: number[] = [];
  for (let r = 0; r < opts.resamples; r++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = pairs[randomInt(random, n)]!;
      a.push(p.a);
      b.push(p.b);
    }
    ratios.push(median(a) / median(b));
  }
  return {
    rounds: n,
    ratio: medianA / medianB,
    low: quantile(ratios, (1 - opts.confidence) / 2),
    high: quantile(ratios, (1 + opts.confidence) / 2),
    medianA,
    medianB,
  };
}
