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
//
// Cost: a resample's median is a walk over its draw counts from a pivot (the
// observed median's rank), where the number of draws below it is counted
// while drawing, so it goes only the few ranks between the pivot and the
// resample's median, not up from the smallest value: O(n) draws plus a short
// walk per resample. The walk ends on the value a walk from the smallest
// would (test/stats-ratio-of-medians-fast.test.ts keeps the plain one). The
// draws go four at a time through the SIMD kernel (draw-kernel.ts) where there
// is one, the same numbers as the plain loop below.
import { drawKernel, kernelMemory, stepped, type DrawKernel } from './draw-kernel.js';
import { median } from './quantile.js';
import { mulberry32State } from './mulberry32-state.js';
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
  const random = { state: mulberry32State(o.seed) };
  const kernel = drawKernel();
  // the counts of both groups in the kernel's memory, after its 16 bytes of scratch
  const memory = kernel ? kernelMemory(kernel, 16 + 4 * (numerator.length + denominator.length)) : null;
  const num = countedGroup(numerator, memory, 16);
  const den = countedGroup(denominator, memory, 16 + 4 * numerator.length);
  const ratios = new Float64Array(o.resamples);
  for (let s = 0; s < o.resamples; s++) {
    // draws in the documented order: every numerator index, then every denominator index
    draw(num, random, kernel);
    draw(den, random, kernel);
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
  /** The pivot rank, and how many of the current draws fell below it. */
  pivot: number;
  under: number;
  /** Byte offset of `counts` in the kernel's memory (when there is a kernel). */
  at: number;
}

function countedGroup(values: readonly number[], memory: ArrayBuffer | null, at: number): CountedGroup {
  const counts = memory ? new Int32Array(memory, at, values.length) : new Int32Array(values.length);
  return { sorted: Float64Array.from(values).sort(), counts, pivot: (values.length - 1) >> 1, under: 0, at };
}

/**
 * n draws with replacement, each an index into the sorted group ((random() * n) | 0
 * is randomInt for n < 2^31), with seededRandom's generator stepped inline
 * from `random.state` (mulberry32-state.ts).
 */
function draw(g: CountedGroup, random: { state: number }, kernel: DrawKernel | null): void {
  const n = g.counts.length;
  const counts = g.counts;
  const pivot = g.pivot;
  counts.fill(0);
  let under = 0;
  let state = random.state;
  let i = 0;
  if (kernel) {
    // the first n - n % 4 draws in the kernel, the rest below, in order
    i = n - (n & 3);
    under = kernel.counted(state, n, i, g.at, pivot);
    state = stepped(state, i);
  }
  for (; i < n; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const j = ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
    counts[j]!++;
    under += (j - pivot) >>> 31; // 1 when j < pivot
  }
  random.state = state;
  g.under = under;
}

/** Type-7 median of the multiset `counts` over `sorted` (as many draws as values). */
function countedMedian(g: CountedGroup): number {
  const h = (g.sorted.length - 1) / 2;
  const lo = Math.floor(h);
  const frac = h - lo;
  // the value at 0-based position lo of the drawn multiset, then the one after it;
  // seen: the draws of the values ranked below rank, walked to from the pivot
  let rank = g.pivot;
  let seen = g.under;
  if (seen > lo) while (seen > lo) seen -= g.counts[--rank]!;
  else while (seen + g.counts[rank]! <= lo) seen += g.counts[rank++]!;
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
