// The "order effect" flag (analysis: carryover-diagnostics.ts) as the report
// carries it: which cells of a difference are flagged, and the short notes the
// summary and every conclusion using a flagged cell append. Pure.
import type { AnalysisResult, CellStatistics, DifferenceResult } from '../analysis/analysis-result.js';
import { fixed } from '../publish/format-number.js';

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
