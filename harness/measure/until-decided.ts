// Pure: when `pipeline measure --until decided` (or --precision P%) stops.
// The formal rounds are cut into blocks of blockRounds consecutive rounds; a
// block plays the part of a session in the sequential rule
// (analysis/sequential-decision.ts): its value is the median over its rounds
// of log a - log b (both launches passed; the median, so that one stalled
// launch does not widen every later interval), and after every block from the
// plan's minSessions on, every pair of commands gets the sequential interval
// of those block means. --until decided stops at the first look where every
// pair is lower, higher or equivalent within the margin; --precision P stops
// where every pair's interval of the ratio is within +-P of its estimate.
// Either stops at the budget (maxSessions blocks), a pair not decided by then
// being undecided. Blocks of one invocation are not independent sessions (no
// fresh start in between), so the interval covers the variation within this
// invocation only, as the paired-round bootstrap of a fixed run does.
import { sequentialDecision, type SequentialDecision } from '../analysis/sequential-decision.js';
import { median } from '../stats/quantile.js';
import type { SequentialPlan } from '../stats/sequential-session-interval.js';
import type { Observation } from './observation.js';

export type MeasureMetric = 'completion' | 'ready';

export interface UntilRule {
  /** decided: every pair has a verdict; precision: every pair's interval is this narrow. */
  kind: 'decided' | 'precision';
  /** Practical margin (relative, 0.05 = +-5%) of the verdict "equivalent". */
  marginRelative: number;
  /** For kind precision: largest relative half width of the ratio's interval. */
  relativeHalfWidth: number;
  blockRounds: number;
  plan: SequentialPlan;
}

export interface PairLook {
  a: number;
  b: number;
  decision: SequentialDecision;
}

export interface Look {
  /** Complete blocks seen. */
  blocks: number;
  pairs: PairLook[];
  stop: boolean;
  /** Why it stopped, when it did. */
  reason: 'decided' | 'precise' | 'budget' | null;
}

export const metricOf: Record<MeasureMetric, (o: Observation) => number | null> = {
  completion: (o) => o.completionMs,
  ready: (o) => o.readyMs,
};

/** Median of log a - log b over the rounds of each complete block where both passed; NaN for a block without such a round. */
export function blockLogRatios(formal: readonly Observation[], a: number, b: number, metric: MeasureMetric, blockRounds: number, blocks: number): number[] {
  const byRound = new Map<number, { a?: number; b?: number }>();
  for (const o of formal) {
    const v = metricOf[metric](o);
    if (o.phase !== 'formal' || !o.ok || v === null || !(v > 0) || (o.command !== a && o.command !== b)) continue;
    const r = byRound.get(o.round) ?? {};
    r[o.command === a ? 'a' : 'b'] = Math.log(v);
    byRound.set(o.round, r);
  }
  const out: number[] = [];
  for (let k = 0; k < blocks; k++) {
    const d: number[] = [];
    for (let round = k * blockRounds + 1; round <= (k + 1) * blockRounds; round++) {
      const r = byRound.get(round);
      if (r?.a !== undefined && r.b !== undefined) d.push(r.a - r.b);
    }
    out.push(d.length > 0 ? median(d) : Number.NaN);
  }
  return out;
}

/** Relative half width of the ratio's interval: the larger distance of its ends from the estimate, exp scale. */
export function relativeHalfWidth(d: SequentialDecision): number {
  if (!d.interval) return Number.POSITIVE_INFINITY;
  const est = Math.exp(d.interval.mean);
  return Math.max(est - Math.exp(d.interval.low), Math.exp(d.interval.high) - est) / est;
}

/** The look after `rounds` formal rounds (only a whole number of blocks is a look). */
export function lookAt(formal: readonly Observation[], commands: number, metric: MeasureMetric, rule: UntilRule, rounds: number): Look {
  const blocks = Math.floor(rounds / rule.blockRounds);
  const pairs: PairLook[] = [];
  for (let a = 0; a < commands; a++) {
    for (let b = a + 1; b < commands; b++) {
      pairs.push({ a, b, decision: sequentialDecision(blockLogRatios(formal, b, a, metric, rule.blockRounds, blocks), rule.plan, rule.marginRelative) });
    }
  }
  const atLook = rounds % rule.blockRounds === 0 && blocks >= rule.plan.minSessions;
  const settled =
    rule.kind === 'decided'
      ? pairs.every((p) => p.decision.interval !== null && p.decision.verdict !== 'undecided')
      : pairs.every((p) => relativeHalfWidth(p.decision) <= rule.relativeHalfWidth);
  const budget = blocks >= rule.plan.maxSessions;
  const stop = atLook && (settled || budget);
  return { blocks, pairs, stop, reason: !stop ? null : settled ? (rule.kind === 'decided' ? 'decided' : 'precise') : 'budget' };
}
