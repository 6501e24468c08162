// Pure: the verdicts of a run that sampled until decided (design.adaptive).
// Such a run looked after every session and stopped when its comparisons
// were decided, so the fixed design's intervals (two-level bootstrap, the
// between-session t) no longer hold their error rate at the look it stopped:
// its verdicts come from the rule the sampling used, the sequential interval
// of the per-session mean log ratios (stats/sequential-session-interval.ts,
// the repeated confidence interval valid at every look at once), decided at
// the first look that stops and kept (sequential-decision.ts
// firstStoppingDecision), against analysis.practical's band of b's median.
// Every difference (Ready and Completion, every configured comparison) is
// judged this way; `detected` then means the sequential verdict is lower or
// higher, and the fixed design's own direction findings (size uncertain,
// sessions disagreeing in size) are cleared. The bootstrap intervals stay as
// descriptions of the sessions run.
import type { AnalysisResult, DifferenceResult, SequentialVerdict } from './analysis-result.js';
import { marginHalfWidth } from './comparison-verdict.js';
import { type PracticalMargin } from '../config/practical-margin.js';
import { firstStoppingDecision } from './sequential-decision.js';
import { sessionLogRatios, type LogRatioRow } from './session-log-ratios.js';
import type { ValueRow } from './sample-data.js';
import { lookPlan, type SequentialPlan } from '../stats/sequential-session-interval.js';

/** The part of the sample stage's adaptive.json the analysis reads: the looks the sampling took. */
export interface AdaptiveLooks {
  minSessions: number;
  maxSessions: number;
  /** The spending exponent of the sampling's boundaries; absent: 1. */
  spendingRho?: number;
}

const column = { ready: 'ready_ms', completion: 'completion_ms' } as const;

/** The analysis' rows in the column names the sequential values read. */
function logRatioRows(values: readonly ValueRow[]): LogRatioRow[] {
  return values.map((v) => ({
    session: v.session,
    cohort: v.cohort,
    path: v.path,
    state: v.state,
    round: v.round,
    ready_ms: v.readyMs,
    completion_ms: v.completionMs,
  }));
}

/** One difference judged by the sequential rule. */
export function sequentialVerdict(
  d: DifferenceResult,
  rows: readonly LogRatioRow[],
  plan: SequentialPlan,
  referenceMs: number | null,
  margin: PracticalMargin,
): SequentialVerdict {
  const values = sessionLogRatios(rows, d, column[d.metric]);
  const half = marginHalfWidth(margin, referenceMs);
  const decision = firstStoppingDecision(values, plan, half);
  const i = decision.interval;
  return {
    verdict: decision.stop ? decision.verdict : 'undecided',
    withinMargin: decision.withinMargin,
    marginRelative: half,
    look: decision.sessions,
    stopped: decision.stop,
    ratio: i ? Math.exp(i.mean) : null,
    ratioLow: i ? Math.exp(i.low) : null,
    ratioHigh: i ? Math.exp(i.high) : null,
  };
}

/** analysis.json of an adaptive run: every difference's verdict and `detected` by the sequential rule, and the plan it used. */
export function withSequentialVerdicts(result: AnalysisResult, values: readonly ValueRow[], looks: AdaptiveLooks, margin: PracticalMargin): AnalysisResult {
  const plan: SequentialPlan = lookPlan(looks.minSessions, looks.maxSessions, looks.spendingRho);
  const rows = logRatioRows(values);
  const median = new Map(result.cells.map((c) => [`${c.cohort}\u0000${c.path}\u0000${c.state}\u0000${c.metric}`, c.p50Ms]));
  const differences = result.differences.map((d): DifferenceResult => {
    const s = sequentialVerdict(d, rows, plan, median.get(`${d.cohort}\u0000${d.b}\u0000${d.state}\u0000${d.metric}`) ?? null, margin);
    const direction = s.verdict === 'lower' || s.verdict === 'higher' ? s.verdict : null;
    return {
      ...d,
      detected: direction !== null,
      // the fixed design's direction rule (size uncertain, sessions disagreeing) is not this rule's: under a data-chosen stop only the sequential interval decides
      findings: { ...d.findings, direction, sizeUncertain: false, sessionsDisagreeInSize: false },
      verdict: { verdict: s.verdict, withinMargin: s.withinMargin, marginRelative: s.marginRelative },
      sequential: s,
    };
  });
  return { ...result, differences, decision: { rule: 'sequential', minSessions: plan.minSessions, maxSessions: plan.maxSessions, alpha: plan.alpha } };
}
