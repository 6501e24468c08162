// variance.csv (schemas/report-variance.schema.json): the variance components
// of analysis.json as a published table (issue 28): per cell and metric those
// of the natural-log launch time (rerun.cells), per difference those of the
// per-round difference a − b in ms² (differences[].replicates), each level
// hosts → runs → sessions → rounds with its REML variance, its units and its
// interval. Written only when the run pooled replicates (same sample-stage
// key): with one run there are no components to publish. Pure.
import type { AnalysisResult, LevelComponent } from './analysis-result.js';
import { csv, type CsvValue } from '../db/csv-text.js';

export const varianceColumns = ['kind', 'cohort', 'state', 'metric', 'path', 'a', 'b', 'scale', 'level', 'units', 'variance', 'low', 'high'] as const;

const g = (v: number | null): string | null => (v === null ? null : Number(v.toPrecision(6)).toString());

/** variance.csv, or null when the analysis has no components (one run, no replicates). */
export function varianceCsv(a: Pick<AnalysisResult, 'rerun' | 'differences'>): string | null {
  const rows: CsvValue[][] = [];
  const levels = (head: CsvValue[], scale: string, components: readonly LevelComponent[]): void => {
    for (const c of components) rows.push([...head, scale, c.level, c.units, g(c.variance), g(c.low), g(c.high)]);
  };
  for (const c of a.rerun?.cells ?? []) levels(['cell', c.cohort, c.state, c.metric, c.path, null, null], 'ln ms', c.components);
  for (const d of a.differences) if (d.replicates) levels(['difference', d.cohort, d.state, d.metric, null, d.a, d.b], 'ms', d.replicates.components);
  return rows.length ? csv(varianceColumns, rows) : null;
}
