// Pure: after each session, the decision of one comparison under optional
// stopping: the sequential interval of the per-session mean log ratios
// (stats/sequential-session-interval.ts) and its verdict against the
// practical margin (comparison-verdict.ts). `stop` is true when the verdict is
// lower, higher or equivalent, or when this was the plan's last look (the
// budget is spent, and undecided is the answer). Before the first look there
// is no interval and the answer is to go on.
import { sequentialSessionInterval, type SequentialInterval, type SequentialPlan } from '../stats/sequential-session-interval.js';
import { comparisonVerdict, relativeFromLog, type ComparisonVerdict } from './comparison-verdict.js';

export interface SequentialDecision extends ComparisonVerdict {
  sessions: number;
  /** The look's interval of the mean log ratio; null before the first look. */
  interval: SequentialInterval | null;
  stop: boolean;
}

/** The decision after the sessions seen so far; `perSessionLogRatio` holds one mean of log a - log b per session, in session order. */
export function sequentialDecision(perSessionLogRatio: readonly number[], plan: SequentialPlan, halfWidth: number): SequentialDecision {
  const sessions = perSessionLogRatio.length;
  const interval = sequentialSessionInterval(perSessionLogRatio, plan);
  const v = comparisonVerdict(interval ? relativeFromLog(interval) : null, halfWidth);
  const stop = sessions >= plan.maxSessions || (interval !== null && v.verdict !== 'undecided');
  return { ...v, sessions, interval, stop };
}

/**
 * The decision taken at the first look (from the plan's first, in session
 * order) at which the rule stops, and kept: later sessions, run for other
 * comparisons, do not reopen it. With fewer sessions than the first look, or
 * no look stopping yet, the decision of the last look so far (not stopped).
 */
export function firstStoppingDecision(perSessionLogRatio: readonly number[], plan: SequentialPlan, halfWidth: number): SequentialDecision {
  let decision = sequentialDecision(perSessionLogRatio.slice(0, Math.min(perSessionLogRatio.length, plan.minSessions)), plan, halfWidth);
  for (let k = plan.minSessions; k <= Math.min(perSessionLogRatio.length, plan.maxSessions); k++) {
    decision = sequentialDecision(perSessionLogRatio.slice(0, k), plan, halfWidth);
    if (decision.stop) break;
  }
  return decision;
}
