// Paired-round bootstrap of the difference of marginal medians, a - b.
//
// The unit of resampling is a complete formal round: a round enters when it
// holds at least one value of each path. Each resample draws as many rounds as
// there are, with replacement (seeded, randomInt over the round list, in
// order), pools the values of path a and of path b over the drawn rounds, and
// takes median(a) - median(b) (type 7). The interval is the percentile
// interval of the resampled differences (type 7 quantiles at (1-c)/2 and
// (1+c)/2). The observed difference is the same statistic on the rounds as they are.
//
// Efficiency: a resample is represented by how often each round was drawn;
// the median of the pooled values is found by walking each path's values
// (sorted once) with those counts, so a resample costs O(rounds + values)
// with no sorting and no allocation.
import { quantileSorted } from './quantile.js';
import { randomInt, seededRandom } from './seeded-random.js';

export interface PairedRound {
  a: readonly number[];
  b: readonly number[];
}

export interface BootstrapOptions {
  resamples: number;
  /** Interval level, e.g. 0.95. */
  confidence: number;
  seed: string | number;
}

export interface BootstrapResult {
  /** Rounds that hold values of both paths (the resampling units). */
  rounds: number;
  observed: number | null;
  low: number | null;
  high: number | null;
  resamples: number;
  confidence: number;
  /** True when the interval contains 0: no difference detected. */
  containsZero: boolean;
}

/** Values of one path sorted ascending, each with the index of its round. */
interface Indexed {
  values: Float64Array;
  round: Int32Array;
  perRound: Int32Array;
}

function index(rounds: readonly PairedRound[], pick: (r: PairedRound) => readonly number[]): Indexed {
  const pairs: [number, number][] = [];
  const perRound = new Int32Array(rounds.length);
  rounds.forEach((r, i) => {
    for (const v of pick(r)) pairs.push([v, i]);
    perRound[i] = pick(r).length;
  });
  pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return {
    values: Float64Array.from(pairs, (p) => p[0]),
    round: Int32Array.from(pairs, (p) => p[1]),
    perRound,
  };
}

/** Type-7 median of the pooled values of the rounds weighted by `counts` (total weight m). */
function weightedMedian(ix: Indexed, counts: Int32Array, m: number): number {
  const h = (m - 1) * 0.5;
  const lo = Math.floor(h);
  const frac = h - lo;
  const values = ix.values;
  const round = ix.round;
  let cum = 0;
  let i = 0;
  const len = values.length;
  for (; i < len; i++) {
    const c = counts[round[i]!]!;
    if (c === 0) continue;
    cum += c;
    if (cum > lo) break;
  }
  const a = values[i]!;
  if (frac === 0) return a;
  if (cum > lo + 1) return a; // the next order statistic is a copy of the same value
  for (i++; i < len; i++) if (counts[round[i]!]! > 0) break;
  return a + frac * (values[i]! - a);
}

export function pairedRoundBootstrap(allRounds: readonly PairedRound[], options: BootstrapOptions): BootstrapResult {
  const rounds = allRounds.filter((r) => r.a.length > 0 && r.b.length > 0);
  const k = rounds.length;
  const base = { rounds: k, resamples: options.resamples, confidence: options.confidence };
  if (k === 0) return { ...base, observed: null, low: null, high: null, containsZero: true };
  const a = index(rounds, (r) => r.a);
  const b = index(rounds, (r) => r.b);
  const counts = new Int32Array(k);
  counts.fill(1);
  const observed = weightedMedian(a, counts, a.values.length) - weightedMedian(b, counts, b.values.length);
  const random = seededRandom(options.seed);
  const diffs = new Float64Array(options.resamples);
  for (let s = 0; s < options.resamples; s++) {
    counts.fill(0);
    let mA = 0;
    let mB = 0;
    for (let j = 0; j < k; j++) {
      const r = randomInt(random, k);
      counts[r]!++;
      mA += a.perRound[r]!;
      mB += b.perRound[r]!;
    }
    diffs[s] = weightedMedian(a, counts, mA) - weightedMedian(b, counts, mB);
  }
  const sorted = Array.from(diffs.sort());
  const tail = (1 - options.confidence) / 2;
  const low = quantileSorted(sorted, tail);
  const high = quantileSorted(sorted, 1 - tail);
  return { ...base, observed, low, high, containsZero: !(low > 0 || high < 0) };
}
