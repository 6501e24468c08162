// Pure: the comparison files the effect report publishes like every
// experiment (differences.csv: the after/before ratio per row; statistics.csv:
// P50 of each side), for pipeline compare and for tracing the summary.
import { comparisonDifferencesCsv, comparisonStatisticsCsv } from '../publish/comparison-csv.js';
import type { MeasuredRow } from './effect-table-md.js';

const metricOf = (r: MeasuredRow): string => r.row.metric.replace(/^printed:/, '');

export function effectCsvs(measured: readonly MeasuredRow[]): { differences: string; statistics: string } {
  return {
    differences: comparisonDifferencesCsv(
      measured.map((r) => ({
        cohort: r.row.id,
        state: 'none',
        metric: metricOf(r),
        a: 'after',
        b: 'before',
        unit: r.row.unit,
        comparison: r.cell.comparison,
        verdict: r.cell.judgement.verdict,
      })),
    ),
    statistics: comparisonStatisticsCsv(
      measured.flatMap((r) => [
        { cohort: r.row.id, path: 'before', state: 'none', metric: metricOf(r), unit: r.row.unit, n: r.cell.nBefore, p50: r.cell.p50Before },
        { cohort: r.row.id, path: 'after', state: 'none', metric: metricOf(r), unit: r.row.unit, n: r.cell.nAfter, p50: r.cell.p50After },
      ]),
    ),
  };
}
