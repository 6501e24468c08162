// Pure prose: a comparison verdict as a report, measure or a CSV reader sees it
// (comparison-verdict.ts decides it). Kept apart from the rule, so that no
// sampling code imports a sentence: rewording never changes a sample stage's key.
import type { ComparisonVerdict } from '../analysis/comparison-verdict.js';

/**
 * "lower", "equivalent within ±5%", ... as a report words it. With `referenceMs` (b's median), the margin is
 * given in ms, its half width there ("equivalent within ±10.0 ms"): where a floor in ms sets it, the share of
 * a short median would read as some hundreds of percent.
 */
export function verdictText(v: ComparisonVerdict, referenceMs: number | null = null): string {
  const band =
    referenceMs !== null && Number.isFinite(referenceMs)
      ? `${(v.marginRelative * referenceMs).toFixed(1)} ms`
      : `${(100 * v.marginRelative).toFixed(v.marginRelative < 0.1 ? 1 : 0).replace(/\.0$/, '')}%`;
  if (v.verdict === 'equivalent') return `equivalent within ±${band}`;
  if (v.verdict === 'undecided') return 'undecided';
  return v.withinMargin ? `${v.verdict}, by less than ${band}` : v.verdict;
}
