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
// Efficiency: see two-level-bootstrap.ts and round-weighted-median.ts, which
// compute it (one session).
import { twoLevelBootstrap, type BootstrapOptions, type PairedRound, type TwoLevelResult } from './two-level-bootstrap.js';

export type { BootstrapOptions, PairedRound } from './two-level-bootstrap.js';

/** The two-level result's interval over rounds; `rounds` are the rounds that hold values of both paths (the resampling units). */
export type BootstrapResult = Pick<TwoLevelResult, 'rounds' | 'observed' | 'low' | 'high' | 'resamples' | 'confidence' | 'containsZero'>;

/** The paired-round bootstrap is the two-level bootstrap with one session (the same draws, the same numbers). */
export function pairedRoundBootstrap(allRounds: readonly PairedRound[], options: BootstrapOptions): BootstrapResult {
  const r = twoLevelBootstrap([{ session: 1, rounds: [...allRounds] }], options);
  const base = { rounds: r.rounds, resamples: options.resamples, confidence: options.confidence };
  return { ...base, observed: r.observed, low: r.low, high: r.high, containsZero: r.containsZero };
}
