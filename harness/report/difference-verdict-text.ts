// Pure: a difference's four-outcome verdict as the report words it. The
// analysis decides it (analysis/difference-record.ts withVerdicts: b's cell
// median the reference of analysis.practical); a record without one (made up
// by a test, or judged by the confirmation step) is judged by the same rule.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { defaultPracticalMargin } from '../config/practical-margin.js';
import type { ComparisonVerdict } from '../analysis/comparison-verdict.js';
import { comparedCells, withVerdicts } from '../analysis/difference-record.js';
import { equivalenceWords } from '../comparison/equivalence-words.js';

export function differenceVerdict(a: AnalysisResult, d: DifferenceResult): ComparisonVerdict {
  return d.verdict ?? withVerdicts([d], a.cells, a.rules?.practical ?? defaultPracticalMargin)[0]!.verdict;
}

/** b's median of the difference's metric, the reference of its band; null when the analysis has no such cell. */
function referenceOf(a: AnalysisResult, d: DifferenceResult): number | null {
  const b = comparedCells(d)[1];
  return a.cells.find((c) => c.cohort === b.cohort && c.path === b.path && c.state === b.state && c.metric === d.metric)?.p50Ms ?? null;
}

/** The interval of a / b − 1 the verdict was taken on: the sequential interval, or the union of the fixed design's two. */
export function decidedOn(
  d: Pick<DifferenceResult, 'lowMs' | 'highMs' | 'sessionLowMs' | 'sessionHighMs' | 'sequential'>,
  referenceMs: number | null,
): { low: number; high: number } | null {
  const s = d.sequential;
  if (s) return s.ratioLow !== null && s.ratioHigh !== null ? { low: s.ratioLow - 1, high: s.ratioHigh - 1 } : null;
  if (referenceMs === null || !(referenceMs > 0)) return null;
  const ends = [d.lowMs, d.highMs, d.sessionLowMs, d.sessionHighMs].filter((x): x is number => x !== null && x !== undefined);
  return ends.length ? { low: Math.min(...ends) / referenceMs, high: Math.max(...ends) / referenceMs } : null;
}

/** "equivalent within ±5% (±1.9 ms of b's 38.1 ms), on [−2.1%, +3.0%]" when the difference is equivalent (comparison/equivalence-words.ts); null otherwise. */
export function equivalenceText(a: AnalysisResult, d: DifferenceResult): string | null {
  const v = differenceVerdict(a, d);
  if (v.verdict !== 'equivalent') return null;
  const reference = referenceOf(a, d);
  return equivalenceWords(v, reference, decidedOn(d, reference));
}

/**
 * The words of a difference the rule gave no direction: "equivalent within ±5%", or, in a run sampled
 * until decided (comparison/sequential-analysis.ts), "undecided"; null otherwise (outcomeWords then says
 * "not detected", the fixed design's word).
 */
export function noDirectionText(a: AnalysisResult, d: DifferenceResult): string | null {
  return equivalenceText(a, d) ?? (a.decision?.rule === 'sequential' ? 'undecided' : null);
}
