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
// Cost: a resample is a vector of per-round draw counts; medians are walks
// over values sorted once (round-weighted-median.ts), the percentiles are
// found by selection (select-quantile.ts): O(B (rounds + values)).
import { indexRounds, roundWeightedMedian } from './round-weighted-median.js';
import { randomInt, seededRandom } from './seeded-random.js';
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

  const a = indexRounds(rounds.map((r) => r.a));
  const b = indexRounds(rounds.map((r) => r.b));
  const sessionStart = new Int32Array(k);
  const sessionRounds = new Int32Array(k);
  let start = 0;
  sessions.forEach((s, i) => {
    sessionStart[i] = start;
    sessionRounds[i] = s.rounds.length;
    start += s.rounds.length;
  });

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

  const random = seededRandom(options.seed);
  const diffs = new Float64Array(options.resamples);
  for (let s = 0; s < options.resamples; s++) {
    counts.fill(0);
    let mA = 0;
    let mB = 0;
    for (let d = 0; d < k; d++) {
      // (random() * n) | 0 is randomInt(random, n) (n < 2^31), written out for the hot loop.
      const session = k === 1 ? 0 : (random() * k) | 0;
      const first = sessionStart[session]!;
      const n = sessionRounds[session]!;
      for (let j = 0; j < n; j++) {
        const r = first + ((random() * n) | 0);
        counts[r]!++;
        mA += a.perRound[r]!;
        mB += b.perRound[r]!;
      }
    }
    diffs[s] = combine(roundWeightedMedian(a, counts, mA), roundWeightedMedian(b, counts, mB));
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
