// Two-level (sessions, then paired rounds) bootstrap of the difference of
// marginal medians, a - b, and the direction of the difference per session.
//
// Input: sessions, each a list of paired rounds (PairedRound: the values of
// path a and of path b measured in that round). pairSessions() builds them
// from rows {session, round, path, value} of one cell pair (one cohort,
// state and metric). A round is a resampling unit when it holds at least
// one value of each path; a session counts when it holds at least one such
// round.
//
// Each of B resamples:
//   1. draws K sessions with replacement (randomInt over the K sessions);
//   2. for each drawn session, in draw order, draws as many of its complete
//      rounds as it has, with replacement (randomInt over its rounds);
//   3. pools the values of a and of b over every drawn round;
//   4. takes median(a) - median(b) (type 7), or median(a) / median(b) for
//      the ratio statistic (whose null value is 1: directions and the
//      interval's verdict are then taken against 1).
// The interval is the type-7 percentiles at (1-c)/2 and (1+c)/2 of the B
// differences. The observed difference is the same statistic on all rounds
// of all sessions, each once.
//
// K = 1: step 1 has only one outcome and takes no number from the
// generator, so the draws, and every number, are those of
// pairedRoundBootstrap() with the same seed: today's one-session analysis.
//
// Per session: the observed difference on that session's rounds alone and
// its sign; `sameDirection` counts the sessions whose sign equals the sign
// of the pooled observed difference ("same direction in k of K sessions").
// With K < 3 the spread between sessions is not estimated
// (`betweenSessionEstimated` false), whatever the interval says.
//
// Cost: a resample is a vector of per-round draw counts, with the percentiles
// found by selection (select-quantile.ts). The median of a resample: a full
// walk would go up the sorted values from the smallest, adding each one's draw count, until
// the walk passes the median's rank: half of all values per resample. Here
// the walk starts at a pivot, the rank of the observed median, where the
// weight below it is already known: every round's values below the pivot are
// counted once (`below`), and a resample adds that count for each round it
// draws, while it draws. From the pivot the walk goes down or up to the same
// order statistic the full walk finds, which lies O(sqrt(n)) ranks away, so a
// resample costs its draws plus a short walk. Same value index, same
// interpolation, so the same floating-point number. And the generator is
// stepped inline (mulberry32-state.ts): the same numbers without a call per draw.
// Where there is a SIMD kernel (draw-kernel.ts), the rounds of one drawn session
// are drawn four at a time in it: the same numbers again.
import { drawKernel, kernelMemory, stepped } from './draw-kernel.js';
import { indexRounds, roundWeightedMedian, type RoundIndexed } from './round-weighted-median.js';
import { mulberry32State } from './mulberry32-state.js';
import { selectQuantile } from './select-quantile.js';

/** The values of path a and of path b measured in one paired round. */
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

/** One formal value of one launch: its session (from 1), round, path and value (e.g. readyMs). */
export interface SessionRow {
  session: number;
  round: number;
  path: string;
  value: number;
}

export interface PairedSession {
  session: number;
  rounds: PairedRound[];
}

export type Direction = -1 | 0 | 1;

export interface SessionDifference {
  session: number;
  /** Complete rounds of this session. */
  rounds: number;
  observed: number;
  /** Sign of `observed`: 1 when a is larger, -1 when b is larger, 0 when equal. */
  direction: Direction;
}

export interface TwoLevelResult {
  /** Sessions with at least one complete round (K). */
  sessions: number;
  /** Complete rounds over all those sessions. */
  rounds: number;
  observed: number | null;
  low: number | null;
  high: number | null;
  resamples: number;
  confidence: number;
  /** True when the interval contains the null value (0; 1 for a ratio): no difference detected. */
  containsZero: boolean;
  perSession: SessionDifference[];
  /** Sessions whose direction equals the direction of the pooled observed difference. */
  sameDirection: number;
  /** False when K < 3: between-session uncertainty is not estimated. */
  betweenSessionEstimated: boolean;
}

/**
 * Groups the rows of paths a and b by session and round, in ascending
 * session and round order; rows of other paths and non-finite values are ignored.
 */
export function pairSessions(rows: readonly SessionRow[], a: string, b: string): PairedSession[] {
  const bySession = new Map<number, Map<number, PairedRound & { a: number[]; b: number[] }>>();
  for (const r of rows) {
    const side = r.path === a ? 'a' : r.path === b ? 'b' : null;
    if (side === null || !Number.isFinite(r.value)) continue;
    let rounds = bySession.get(r.session);
    if (!rounds) bySession.set(r.session, (rounds = new Map()));
    let round = rounds.get(r.round);
    if (!round) rounds.set(r.round, (round = { a: [], b: [] }));
    round[side].push(r.value);
  }
  return [...bySession.keys()]
    .sort((x, y) => x - y)
    .map((session) => {
      const rounds = bySession.get(session)!;
      return { session, rounds: [...rounds.keys()].sort((x, y) => x - y).map((k) => rounds.get(k)!) };
    });
}

/** What a resample computes from the two medians: a - b, or a / b (its null value is 1, and directions are taken against 1). */
export type PairedStatistic = 'difference' | 'ratio';

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

export function twoLevelBootstrap(allSessions: readonly PairedSession[], options: BootstrapOptions, statistic: PairedStatistic = 'difference'): TwoLevelResult {
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

  // observed and per-session differences: a few full walks
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
  // count, and a round's two below-pivot counts (0 or 1) are one byte, belowA + 2 belowB:
  // one small load per draw instead of four. The sum of the bytes of the drawn rounds and
  // the sum of their halves give both counts below the pivot.
  const single = perA.every((x) => x === 1) && perB.every((x) => x === 1);
  const kernel = single ? drawKernel() : null;
  const nRounds = rounds.length;
  // in the kernel's memory: 16 bytes of scratch (the kernel's two sums), the counts, the bytes
  const memory = kernel ? kernelMemory(kernel, 16 + 5 * nRounds) : null;
  const drawn = memory ? new Int32Array(memory, 16, nRounds) : new Int32Array(nRounds);
  const packed = single ? (memory ? new Uint8Array(memory, 16 + 4 * nRounds, nRounds) : new Uint8Array(nRounds)) : null;
  if (packed) for (let r = 0; r < nRounds; r++) packed[r] = belowA[r]! + 2 * belowB[r]!;
  const sums = memory ? new Int32Array(memory, 0, 2) : null;
  for (let s = 0; s < options.resamples; s++) {
    drawn.fill(0);
    if (sums) sums.fill(0);
    let mA = 0;
    let mB = 0;
    let underA = 0;
    let underB = 0;
    let sum = 0;
    let high = 0;
    for (let d = 0; d < k; d++) {
      // steps 1 and 2 in draw order; the generator of seeded-random.ts stepped inline (mulberry32-state.ts)
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
        let j = 0;
        if (kernel) {
          // the first n - n % 4 draws in the kernel, the rest below, in order
          j = n - (n & 3);
          kernel.rounds(state, n, j, first, 16, 16 + 4 * nRounds, 0);
          state = stepped(state, j);
        }
        for (; j < n; j++) {
          state = (state + 0x6d2b79f5) | 0;
          let t = Math.imul(state ^ (state >>> 15), state | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          const r = first + (((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0);
          drawn[r]!++;
          const p = packed[r]!;
          sum += p;
          high += p >> 1;
        }
      } else {
        for (let j = 0; j < n; j++) {
          state = (state + 0x6d2b79f5) | 0;
          let t = Math.imul(state ^ (state >>> 15), state | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          const r = first + (((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0);
          drawn[r]!++;
          mA += perA[r]!;
          mB += perB[r]!;
          underA += belowA[r]!;
          underB += belowB[r]!;
        }
      }
    }
    if (packed) {
      if (sums) {
        sum += sums[0]!;
        high += sums[1]!;
      }
      mB = mA;
      underB = high;
      underA = sum - 2 * high;
    }
    diffs[s] = combine(pivotedMedian(a, drawn, mA, underA), pivotedMedian(b, drawn, mB, underB));
  }
  const tail = (1 - options.confidence) / 2;
  const low = selectQuantile(diffs, tail);
  const high = selectQuantile(diffs, 1 - tail);
  return { ...base, observed, low, high, containsZero: !(low > nullValue || high < nullValue), perSession, sameDirection };
}

/** "same direction in k of K sessions", with the K < 3 caveat the report must carry. */
export function sessionDirectionSentence(r: Pick<TwoLevelResult, 'sessions' | 'sameDirection' | 'betweenSessionEstimated'>): string {
  const base = `same direction in ${r.sameDirection} of ${r.sessions} session${r.sessions === 1 ? '' : 's'}`;
  return r.betweenSessionEstimated ? base : `${base}; between-session uncertainty not estimated (fewer than 3 sessions)`;
}
