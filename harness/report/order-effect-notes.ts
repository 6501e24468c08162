// The "order effect" flag (analysis: carryover-diagnostics.ts) as the report
// carries it: which cells of a difference are flagged, and the short notes the
// summary and every conclusion using a flagged cell append. Pure.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from './format-number.js';

const cellOf = (a: AnalysisResult, cohort: string, path: string, state: string, metric: string): CellStatistics | undefined =>
  a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === metric);

/** The flagged cells among the two a difference compares (a first). */
export function differenceOrderEffect(a: AnalysisResult, d: Pick<DifferenceResult, 'cohort' | 'state' | 'metric' | 'a' | 'b'>): CellStatistics[] {
  return [d.a, d.b].map((p) => cellOf(a, d.cohort, p, d.state, d.metric)).filter((c): c is CellStatistics => c?.orderEffect === true);
}

/** "position ×1.42 [1.21, 1.86]; previous path ×1.67 [1.13, 2.37]": the flagged effects of one cell. */
export function orderEffectFigures(c: CellStatistics): string {
  const parts: string[] = [];
  if (c.position?.flagged) parts.push(`position ×${fixed(c.position.ratio, 2)} [${fixed(c.position.low, 2)}, ${fixed(c.position.high, 2)}]`);
  if (c.predecessor?.flagged) parts.push(`previous path ×${fixed(c.predecessor.ratio, 2)} [${fixed(c.predecessor.low, 2)}, ${fixed(c.predecessor.high, 2)}]`);
  return parts.join('; ');
}

/** '' or " (order effect: docker cold Ready, position ×1.42 [...]; see Carryover)" for a conclusion resting on a difference. */
export function differenceOrderNote(a: AnalysisResult, d: Pick<DifferenceResult, 'cohort' | 'state' | 'metric' | 'a' | 'b'>): string {
  const flagged = differenceOrderEffect(a, d);
  if (flagged.length === 0) return '';
  return ` (order effect: ${flagged.map((c) => `${c.path} ${c.state} ${c.metric} depends on its order, ${orderEffectFigures(c)}`).join('; ')}; see "Carryover")`;
}

/** '' or " (order effect; see Carryover)" for a conclusion resting on one cell. */
export function cellOrderNote(c: CellStatistics): string {
  return c.orderEffect === true ? ' (order effect, see "Carryover")' : '';
}

/** The summary's sentence for a cohort's flagged cells, or null when none is flagged. */
export function orderEffectSummary(a: AnalysisResult, cohort: string): string | null {
  const flagged = a.cells.filter((c) => c.cohort === cohort && c.orderEffect === true);
  if (flagged.length === 0) return null;
  const ready = flagged.filter((c) => c.metric === 'ready');
  const completionOnly = flagged.filter((c) => c.metric === 'completion' && !ready.some((r) => r.path === c.path && r.state === c.state));
  const list = [...ready.map((c) => `${c.state} ${c.path} Ready (${orderEffectFigures(c)})`), ...completionOnly.map((c) => `${c.state} ${c.path} Completion`)];
  return (
    `Order effect: ${list.join(', ')} ${list.length === 1 ? 'depends' : 'depend'} on where in the round, or after which path, the launches ran (see "Carryover"), ` +
    'so these medians, and every difference that uses them, describe this run’s order as well as the path.'
  );
}
