// Pure: a fixed-design difference's four-outcome verdict
// (analysis/difference-verdict.ts) as the report words it, from the analysis
// result: b's cell median of the same metric is the reference of the margin,
// analysis.practical (AnalysisRules.practical) its size.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { defaultPracticalMargin, verdictText, type ComparisonVerdict } from '../analysis/comparison-verdict.js';
import { fixedDifferenceVerdict } from '../analysis/difference-verdict.js';

export function differenceVerdict(a: AnalysisResult, d: DifferenceResult): ComparisonVerdict {
  const b = a.cells.find((c) => c.cohort === d.cohort && c.path === d.b && c.state === d.state && c.metric === d.metric);
  return fixedDifferenceVerdict(
    { observed: d.observedMs, low: d.lowMs, high: d.highMs, sessionLow: d.sessionLowMs, sessionHigh: d.sessionHighMs, detected: d.detected },
    'difference',
    b?.p50Ms ?? null,
    a.rules?.practical ?? defaultPracticalMargin,
  );
}

/** "equivalent within ±5%" when the difference is equivalent; null otherwise. */
export function equivalenceText(a: AnalysisResult, d: DifferenceResult): string | null {
  const v = differenceVerdict(a, d);
  return v.verdict === 'equivalent' ? verdictText(v) : null;
}
