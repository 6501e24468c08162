// Pure: a difference's four-outcome verdict as the report words it. The
// analysis decides it (analysis/difference-record.ts withVerdicts: b's cell
// median the reference of analysis.practical); a record without one (made up
// by a test, or judged by the confirmation step) is judged by the same rule.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { defaultPracticalMargin } from '../config/practical-margin.js';
import { verdictText, type ComparisonVerdict } from '../analysis/comparison-verdict.js';
import { withVerdicts } from '../analysis/difference-record.js';

export function differenceVerdict(a: AnalysisResult, d: DifferenceResult): ComparisonVerdict {
  return d.verdict ?? withVerdicts([d], a.cells, a.rules?.practical ?? defaultPracticalMargin)[0]!.verdict;
}

/** "equivalent within ±5%" when the difference is equivalent; null otherwise. */
export function equivalenceText(a: AnalysisResult, d: DifferenceResult): string | null {
  const v = differenceVerdict(a, d);
  return v.verdict === 'equivalent' ? verdictText(v) : null;
}

/**
 * The words of a difference the rule gave no direction: "equivalent within ±5%", or, in a run sampled
 * until decided (analysis/sequential-verdicts.ts), "undecided"; null otherwise (outcomeWords then says
 * "not detected", the fixed design's word).
 */
export function noDirectionText(a: AnalysisResult, d: DifferenceResult): string | null {
  return equivalenceText(a, d) ?? (a.decision?.rule === 'sequential' ? 'undecided' : null);
}
