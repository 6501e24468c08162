// The two-level bootstrap of two-level-bootstrap.ts, the same draws and the
// same numbers, computed faster; the analysis stage uses this one.
// two-level-bootstrap.ts stays as it is: the sample stage's confirmation step
// runs it, and a change there would change the published sample-stage key.
// test/stats-two-level-bootstrap-fast.test.ts holds the two (and a plain
// reference) equal.
//
// What is faster: the median of a resample. two-level-bootstrap.ts walks up
// the sorted values from the smallest, adding each one's draw count, until
// the walk passes the median's rank: half of all values per resample. Here
// the walk starts at a pivot, the rank of the observed median, where the
// weight below it is already known: every round's values below the pivot are
// counted once (`below`), and a resample adds that count for each round it
// draws, while it draws. From the pivot the walk goes down or up to the same
// order statistic the full walk finds, which lies O(sqrt(n)) ranks away, so a
// resample costs its draws plus a short walk. Same value index, same
// interpolation, so the same floating-point number. And the generator is
// stepped inline (mulberry32-state.ts): the same numbers without a call per draw.
import { indexRounds, roundWeightedMedian, type RoundIndexed } from './round-weighted-median.js';
import { mulberry32State } from './mulberry32-state.js';
import { selectQuantile } from './select-quantile.js';
import type { BootstrapOptions, Direction, PairedSession, PairedStatistic, SessionDifference, TwoLevelResult } from './two-level-bootstrap.js';

/** A path's sorted values with a pivot rank and, per round, how many of its values rank below the pivot. */
interface Pivoted extends RoundIndexed {
  pivot: number;
  below: Int32Array;
}

function pivoted(ix: RoundIndexed): Pivoted {
  const pivot = (ix.values.length - 1) >> 1;
  const below = new Int32Array(ix.perRound.length);
  for (let i = 0; i < pivot; i++) below[ix.round[i]!]!++;
  return { ...ix, pivot, below };
}

/**
 * roundWeightedMedian(ix, counts, m), walked from the pivot: `under` is the
 * total draw weight of the values ranked below the pivot.
 */
function pivotedMedian(ix: Pivoted, counts: Int32Array, m: number, under: number): number {
  const h = (m - 1) * 0.5;
  const lo = Math.floor(h);
  const frac = h - lo;
  const values = ix.values;
  const round = ix.round;
  const len = values.length;
  let i = ix.pivot;
  let cum = under; // weight of the values ranked below i
  if (cum > lo) {
    // the median ranks below the pivot: step down until the weight below i no longer passes lo
    while (cum > lo) cum -= counts[round[--i]!]!;
    cum += counts[round[i]!]!;
  } else {
    for (; i < len; i++) {
      cum += counts[round[i]!]!;
      if (cum > lo) break;
    }
  }
  // cum: the weight of the values up to and including i, as in the full walk
  const a = values[i]!;
  if (frac === 0) return a;
  if (cum > lo + 1) return a;
  for (i++; i < len; i++) if (counts[round[i]!]! > 0) break;
  return a + frac * (values[i]! - a);
}

export function twoLevelBootstrapFast(
  allSessions: readonly PairedSession[],
  options: BootstrapOptions,
  statistic: PairedStatistic = 'difference',
): TwoLevelResult {
  const combine = statistic === 'ratio' ? (x: number, y: number): number => x / y : (x: number, y: number): number => x - y;
  const nullValue = statistic === 'ratio' ? 1 : 0;
  const sessions = allSessions
    .map((s) => ({ session: s.session, rounds: s.rounds.filter((r) => r.a.length > 0 && r.b.length > 0) }))
    .filter((s) => s.rounds.length > 0);
  const k = sessions.length;
  const rounds = sessions.flatMap((s) => s.rounds);
  const base = {
    sessions: k,
    rounds: rounds.length,
    resamples: options.resamples,
    confidence: options.confidence,
    betweenSessionEstimated: k >= 3,
  };
  if (k === 0) return { ...base, observed: null, low: null, high: null, containsZero: true, perSession: [], sameDirection: 0 };

  const a = pivoted(indexRounds(rounds.map((r) => r.a)));
  const b = pivoted(indexRounds(rounds.map((r) => r.b)));
  const sessionStart = new Int32Array(k);
  const sessionRounds = new Int32Array(k);
  let start = 0;
  sessions.forEach((s, i) => {
    sessionStart[i] = start;
    sessionRounds[i] = s.rounds.length;
    start += s.rounds.length;
  });

  // observed and per-session differences: a few full walks, as in two-level-bootstrap.ts
  const counts = new Int32Array(rounds.length);
  const medianDifference = (): number => {
    let mA = 0;
    let mB = 0;
    for (let r = 0; r < counts.length; r++) {
      mA += counts[r]! * a.perRound[r]!;
      mB += counts[r]! * b.perRound[r]!;
    }
    return combine(roundWeightedMedian(a, counts, mA), roundWeightedMedian(b, counts, mB));
  };
  counts.fill(1);
  const observed = medianDifference();
  const perSession: SessionDifference[] = sessions.map((s, i) => {
    counts.fill(0);
    counts.fill(1, sessionStart[i]!, sessionStart[i]! + sessionRounds[i]!);
    const d = medianDifference();
    return { session: s.session, rounds: sessionRounds[i]!, observed: d, direction: Math.sign(d - nullValue) as Direction };
  });
  const overall = Math.sign(observed - nullValue);
  const sameDirection = perSession.filter((s) => s.direction === overall).length;

  let state = mulberry32State(options.seed);
  const diffs = new Float64Array(options.resamples);
  const perA = a.perRound;
  const perB = b.perRound;
  const belowA = a.below;
  const belowB = b.below;
  // Rounds of one value of each path (the usual case): a resample's weights are its draw
  // count, and a round's two below-pivot counts (0 or 1) are one number, belowA + belowB * 2^26,
  // summed exactly in a double (fewer than 2^26 rounds): one load per draw instead of four.
  const single = rounds.length < 2 ** 26 && perA.every((x) => x === 1) && perB.every((x) => x === 1);
  const packed = single ? Float64Array.from(belowA, (x, r) => x + belowB[r]! * 2 ** 26) : null;
  for (let s = 0; s < options.resamples; s++) {
    counts.fill(0);
    let mA = 0;
    let mB = 0;
    let underA = 0;
    let underB = 0;
    let under = 0;
    for (let d = 0; d < k; d++) {
      // the draws of two-level-bootstrap.ts, in its order; the generator of seeded-random.ts stepped inline (mulberry32-state.ts)
      let session = 0;
      if (k > 1) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        session = ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k) | 0;
      }
      const first = sessionStart[session]!;
      const n = sessionRounds[session]!;
      if (packed) {
        mA += n;
        for (let j = 0; j < n; j++) {
          state = (state + 0x6d2b79f5) | 0;
          let t = Math.imul(state ^ (state >>> 15), state | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          const r = first + (((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0);
          counts[r]!++;
          under += packed[r]!;
        }
      } else {
        for (let j = 0; j < n; j++) {
          state = (state + 0x6d2b79f5) | 0;
          let t = Math.imul(state ^ (state >>> 15), state | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          const r = first + (((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0);
          counts[r]!++;
          mA += perA[r]!;
          mB += perB[r]!;
          underA += belowA[r]!;
          underB += belowB[r]!;
        }
      }
    }
    if (packed) {
      mB = mA;
      underB = Math.floor(under / 2 ** 26);
      underA = under - underB * 2 ** 26;
    }
    diffs[s] = combine(pivotedMedian(a, counts, mA, underA), pivotedMedian(b, counts, mB, underB));
  }
  const tail = (1 - options.confidence) / 2;
  const low = selectQuantile(diffs, tail);
  const high = selectQuantile(diffs, 1 - tail);
  return { ...base, observed, low, high, containsZero: !(low > nullValue || high < nullValue), perSession, sameDirection };
}
