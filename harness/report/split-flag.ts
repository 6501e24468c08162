// The cluster rule's flag on every side of every table (pure): wherever a row
// names a path of a cohort and state (a cell, one side of a difference, a
// span row, a dominance pair), a path whose launches the cluster rule split
// carries ‡, so no median of a split distribution is read as a typical
// launch. The rule and its minimum group size are the analysis's
// (analysis.clusters); this module only looks up each side's cell.
import type { AnalysisResult, CellStatistics } from '../analysis/analysis-result.js';

export const splitMark = '‡';

function cellOf(a: AnalysisResult, cohort: string, path: string, state: string, metric: string): CellStatistics | undefined {
  return a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === metric);
}

/** True when the cluster rule split the cell's launches into more than one group. */
export function isSplit(a: AnalysisResult, cohort: string, path: string, state: string, metric = 'ready'): boolean {
  return cellOf(a, cohort, path, state, metric)?.split === true;
}

/** The path as a side of a row: `oci-full‡` when its cell split. */
export function side(a: AnalysisResult, cohort: string, path: string, state: string, metric = 'ready'): string {
  return isSplit(a, cohort, path, state, metric) ? `${path}${splitMark}` : path;
}

/** `a − b` with each split side flagged. */
export function differenceSides(a: AnalysisResult, cohort: string, state: string, metric: string, pa: string, pb: string): string {
  return `${side(a, cohort, pa, state, metric)} − ${side(a, cohort, pb, state, metric)}`;
}

/** For a cell whose row does not name the path (a summary column): `; ‡ split: oci-full (3 clusters)`, or '' when neither side split. */
export function splitSuffix(a: AnalysisResult, cohort: string, state: string, metric: string, paths: readonly string[]): string {
  const split = paths.map((p) => cellOf(a, cohort, p, state, metric)).filter((c): c is CellStatistics => c?.split === true);
  return split.length ? `; ${splitMark} split: ${split.map((c) => `${c.path} (${c.groups.length} clusters)`).join(', ')}` : '';
}

/** The legend, once, when any cell split; null otherwise. */
export function splitLegend(a: AnalysisResult): string | null {
  return a.cells.some((c) => c.split)
    ? `${splitMark} marks a side whose launches the cluster rule split into separate clusters: its median describes no typical launch ("Start-up times" gives each cluster's median).`
    : null;
}
