// Pure: the comparisons along a factor other than the arm (analysis.comparisons
// with `factor: unit` or `factor: condition`). A unit comparison is a − b
// between two cohorts (e.g. one image saved in two formats) with the path and
// the state held fixed; a condition comparison is a − b between two states
// (cold − warm) with the cohort and the path held fixed. Each is paired by
// (session, round), judged by the detection rule and given its four-outcome
// verdict (b's median the margin's reference) exactly as a comparison between
// arms is, in the same record (difference-results.ts, difference-record.ts): only which rows form
// side a and side b differs.
import { pairSessions, type SessionRow } from '../stats/two-level-bootstrap.js';
import { comparedCells, msComparison, recordVerdict, type DifferenceKey, type FactorDifference } from './difference-record.js';
import { cellKey, metricValue, rowsByCell } from './difference-results.js';
import type { AnalysisRules, MetricId } from '../config/analysis-rules.js';
import { levelWord } from '../config/comparison-factors.js';
import { UserError } from '../errors.js';
import type { SampleData } from './sample-data.js';

/** Every difference of the configured unit and condition comparisons found in the data, in config order, then fixed levels, then metric. */
export function factorDifferences(
  data: Pick<SampleData, 'cells' | 'values'>,
  rules: AnalysisRules,
  medianMs: (cell: { cohort: string; path: string; state: string; metric: MetricId }) => number | null,
): FactorDifference[] {
  const byCell = rowsByCell(data.values);
  const levels = (pick: (c: SampleData['cells'][number]) => string): string[] => [...new Set(data.cells.map(pick))].sort();
  const out: FactorDifference[] = [];
  rules.comparisons.forEach((cmp, i) => {
    if (!cmp.factor) return;
    const sampled = cmp.factor === 'unit' ? levels((c) => c.cohort) : levels((c) => c.state);
    for (const side of ['a', 'b'] as const) {
      if (!sampled.includes(cmp[side]))
        throw new UserError(
          `${levelWord[cmp.factor]} ${JSON.stringify(cmp[side])} has no formal samples`,
          { key: `analysis.comparisons[${i}].${side}` },
          `use one of: ${sampled.join(', ') || '(none sampled)'}`,
        );
    }
    const held = cmp.factor === 'unit' ? levels((c) => c.state) : levels((c) => c.cohort);
    for (const path of levels((c) => c.path)) {
      for (const other of held) {
        for (const metric of rules.metrics) {
          const key = {
            factor: cmp.factor,
            cohort: cmp.factor === 'unit' ? '' : other,
            path,
            state: cmp.factor === 'unit' ? other : '',
            metric,
            a: cmp.a,
            b: cmp.b,
          };
          const cells = comparedCells(key);
          const rows = sideRows(byCell, [cmp.a, cmp.b], cells, metric);
          if (!rows.some((r) => r.path === cmp.a) || !rows.some((r) => r.path === cmp.b)) continue; // a level sampled, but not on this path (or in this state)
          const comparison = msComparison(pairSessions(rows, cmp.a, cmp.b), {
            resamples: rules.bootstrap.resamples,
            confidence: rules.bootstrap.confidence,
            seed: [rules.bootstrap.seed, cmp.factor, path, other, metric, cmp.a, cmp.b].join('|'),
          });
          out.push({ ...key, ...comparison, verdict: recordVerdict(comparison, medianMs({ ...cells[1], metric }), rules.practical) });
        }
      }
    }
  });
  return out;
}

/** The valid values of side a's cell and side b's cell (comparedCells), each row labelled with its side's level (as pairSessions reads `path`). */
function sideRows(
  byCell: ReturnType<typeof rowsByCell<SampleData['values'][number]>>,
  levels: readonly [string, string],
  cells: ReturnType<typeof comparedCells>,
  metric: MetricId,
): SessionRow[] {
  const rows: SessionRow[] = [];
  cells.forEach((c, side) => {
    for (const r of byCell.get(cellKey(c.cohort, c.path, c.state)) ?? []) {
      const v = metricValue[metric](r);
      if (v !== null && Number.isFinite(v)) rows.push({ session: r.session, round: r.round, value: v, path: levels[side]! });
    }
  });
  return rows;
}

/** A factor difference's fixed levels in words, e.g. "path lazy, cold" or "cohort numpy, path lazy". */
export function fixedLevelsText(d: DifferenceKey): string {
  return d.factor === 'unit' ? `path ${d.path}, ${d.state}` : `cohort ${d.cohort}, path ${d.path}`;
}
