// The report's words for the rerun intervals: the summary cell's rerun
// interval (and cross-host range, with replicates on two hosts or more), and
// the scope line's sentence on which levels the intervals cover and which
// between-run figure the rerun interval stands on.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';

/** ", rerun [lo, hi]" and "; hosts lo to hi" after a difference's 95% interval; '' without a rerun interval. */
export function rerunText(d: DifferenceResult, msDecimals: number): string {
  const ms = (v: number): string => fixed(v, msDecimals);
  const rerun = d.rerun ? ` rerun [${ms(d.rerun.lowMs)}, ${ms(d.rerun.highMs)}]` : '';
  const hosts = d.replicates?.crossHost ? ` hosts ${ms(d.replicates.crossHost.lowMs)} to ${ms(d.replicates.crossHost.highMs)}` : '';
  return rerun + hosts;
}

/** The factor a run moves a cell by at one standard deviation of the between-run figure. */
const factorAtOneSd = (logVariance: number): string => `×${fixed(Math.exp(Math.sqrt(logVariance)), 3)}`;

/** The scope line's sentence on the intervals' levels; null for an analysis written before rerun intervals. */
export function rerunScopeSentence(a: AnalysisResult): string | null {
  const r = a.rerun;
  if (!r) return null;
  const conf = fixed((a.differences[0]?.confidence ?? 0.95) * 100, 0);
  const covers = `each ${conf}% interval covers this run's sessions and rounds only; the rerun interval, where a rerun's estimate should fall, adds a rerun's own sampling and between-run drift`;
  const drift = `${factorAtOneSd(r.runLogVariance)} per cell and ${factorAtOneSd(r.ratioRunLogVariance ?? 0)} between a difference's two paths at one sd`;
  if (r.source === 'host kind') {
    return `**Rerun:** ${covers}. With one run, that drift is assumed to be the host kind's, ${drift}, ${r.figureSource}.`;
  }
  const hosts = r.hosts >= 2 ? `; between hosts ${factorAtOneSd(r.hostLogVariance ?? 0)} per cell, and "hosts" is the range of the hosts' estimates` : '';
  return `**Rerun:** ${covers}, ${drift}, measured on ${r.figureSource}${hosts}.`;
}
