// Pure: the paired-round bootstrap of the ratio of medians, after / before.
//
// The unit of resampling is a round that holds at least one valid value of
// each side. Each resample draws as many rounds as there are, with
// replacement (seeded), pools each side's values over the drawn rounds and
// takes median(after) / median(before) (type 7). The interval is the
// percentile interval of the resampled ratios. P50 and P90 are type-7
// quantiles of all valid values of a side.
import { quantile, quantileSorted } from '../stats/quantile.js';
import { randomInt, seededRandom } from '../stats/seeded-random.js';

export interface EffectRound {
  before: readonly number[];
  after: readonly number[];
}

export interface EffectCell {
  /** Rounds holding both sides (the resampling units). */
  rounds: number;
  nBefore: number;
  nAfter: number;
  p50Before: number | null;
  p50After: number | null;
  p90Before: number | null;
  p90After: number | null;
  /** p50After / p50Before. */
  ratio: number | null;
  low: number | null;
  high: number | null;
  confidence: number;
  resamples: number;
}

function pooledMedian(rounds: readonly EffectRound[], picks: Int32Array, side: 'before' | 'after'): number {
  const values: number[] = [];
  for (const i of picks) values.push(...rounds[i]![side]);
  return quantile(values, 0.5);
}

export function effectCell(allRounds: readonly EffectRound[], opts: { resamples: number; confidence: number; seed: string }): EffectCell {
  const rounds = allRounds.filter((r) => r.before.length > 0 && r.after.length > 0);
  const before = rounds.flatMap((r) => [...r.before]);
  const after = rounds.flatMap((r) => [...r.after]);
  const q = (v: number[], p: number) => (v.length ? quantile(v, p) : null);
  const base = {
    rounds: rounds.length,
    nBefore: before.length,
    nAfter: after.length,
    p50Before: q(before, 0.5),
    p50After: q(after, 0.5),
    p90Before: q(before, 0.9),
    p90After: q(after, 0.9),
    confidence: opts.confidence,
    resamples: opts.resamples,
  };
  if (rounds.length === 0 || !base.p50Before) return { ...base, ratio: null, low: null, high: null };
  const random = seededRandom(opts.seed);
  const k = rounds.length;
  const picks = new Int32Array(k);
  const ratios: number[] = [];
  for (let s = 0; s < opts.resamples; s++) {
    for (let j = 0; j < k; j++) picks[j] = randomInt(random, k);
    const b = pooledMedian(rounds, picks, 'before');
    if (b > 0) ratios.push(pooledMedian(rounds, picks, 'after') / b);
  }
  ratios.sort((x, y) => x - y);
  const tail = (1 - opts.confidence) / 2;
  return {
    ...base,
    ratio: base.p50After! / base.p50Before,
    low: ratios.length ? quantileSorted(ratios, tail) : null,
    high: ratios.length ? quantileSorted(ratios, 1 - tail) : null,
  };
}
