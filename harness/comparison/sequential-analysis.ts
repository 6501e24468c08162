// Pure: the verdicts of a run that sampled until decided (design.adaptive), by
// the one judge (judge.ts) every experiment uses. Such a run looked after
// every session and stopped when its comparisons were decided, so the fixed
// design's intervals (two-level bootstrap, the between-session t) no longer
// hold their error rate at the look it stopped: its verdicts come from the
// rule the sampling used, the sequential interval of the per-session mean log
// ratios, decided at the first look that stops and kept, against
// analysis.practical's band of b's median, with the looks and spending the
// sample stage's adaptive.json records (looks-file.ts). Every path difference
// (Ready and Completion, every configured comparison) is judged this way;
// `detected` then means the verdict is lower or higher, and the fixed
// design's own direction findings (size uncertain, sessions disagreeing in
// size) are cleared. The bootstrap intervals stay as descriptions of the
// sessions run.
import type { AnalysisResult, DifferenceResult, SequentialVerdict } from '../analysis/analysis-result.js';
import { marginHalfWidth } from '../analysis/comparison-verdict.js';
import type { ValueRow } from '../analysis/sample-data.js';
import type { PracticalMargin } from '../config/practical-margin.js';
import { pairSessions, type PairedSession } from '../stats/two-level-bootstrap.js';
import { judgeSequentially, planOfLooks, type Looks } from './judge.js';

const metricOf = { ready: (v: ValueRow) => v.readyMs, completion: (v: ValueRow) => v.completionMs } as const;

/** The sessions of one path difference: per session and round, a's and b's formal values (positive ones: a log ratio needs them). */
export function differenceSessions(values: readonly ValueRow[], d: Pick<DifferenceResult, 'cohort' | 'state' | 'metric' | 'a' | 'b'>): PairedSession[] {
  const pick = metricOf[d.metric as keyof typeof metricOf];
  const rows = values
    .filter((v) => v.cohort === d.cohort && v.state === d.state && (v.path === d.a || v.path === d.b))
    .map((v) => ({ session: v.session, round: v.round, path: v.path, value: pick(v) ?? Number.NaN }))
    .filter((r) => r.value > 0);
  return pairSessions(rows, d.a, d.b);
}

/** One difference judged by the sequential rule of the run's looks. */
export function sequentialVerdict(sessions: readonly PairedSession[], looks: Looks, referenceMs: number | null, margin: PracticalMargin): SequentialVerdict {
  const j = judgeSequentially(sessions, marginHalfWidth(margin, referenceMs), looks);
  if (j.rule.kind !== 'sequential') throw new Error('the sequential rule gave a fixed verdict');
  return {
    verdict: j.verdict,
    withinMargin: j.withinMargin,
    marginRelative: j.marginRelative,
    look: j.rule.look,
    stopped: j.rule.stopped,
    ratio: j.rule.ratio,
    ratioLow: j.rule.ratioLow,
    ratioHigh: j.rule.ratioHigh,
  };
}

/** analysis.json of an adaptive run: every path difference's verdict and `detected` by the sequential rule, and the plan it used. */
export function withSequentialVerdicts(result: AnalysisResult, values: readonly ValueRow[], looks: Looks, margin: PracticalMargin): AnalysisResult {
  const plan = planOfLooks(looks);
  const median = new Map(result.cells.map((c) => [`${c.cohort}\u0000${c.path}\u0000${c.state}\u0000${c.metric}`, c.p50Ms]));
  const differences = result.differences.map((d): DifferenceResult => {
    const s = sequentialVerdict(differenceSessions(values, d), looks, median.get(`${d.cohort}\u0000${d.b}\u0000${d.state}\u0000${d.metric}`) ?? null, margin);
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
