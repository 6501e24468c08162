// Pure: the differences.csv and statistics.csv of an experiment whose
// comparisons are ComparisonResults (the effect table, commit-diff, and any
// experiment on the model), with the column names of the published
// lazy-startup files (render-csv.ts), so `pipeline compare` reads every
// experiment's report folders alike. A ratio is written as kind
// median_ratio (its null value is 1).
import { defaultPracticalMargin, type PracticalMargin } from '../analysis/comparison-verdict.js';
import { fixedDifferenceVerdict } from '../analysis/difference-verdict.js';
import type { ComparisonResult } from '../stats/paired-comparison.js';
import { csv } from './format-number.js';

/** The columns of every experiment's differences.csv (the default report appends its rerun columns). */
export const differencesColumns = [
  'kind',
  'cohort',
  'state',
  'metric',
  'a',
  'b',
  'service',
  'artifact',
  'operation',
  'unit',
  'value',
  'low',
  'high',
  'confidence',
  'resamples',
  'n',
  'detected',
  'sessions',
  'sessions_same_direction',
  'session_low',
  'session_high',
  'order_effect',
  'verdict',
] as const;

export interface ComparisonLine {
  cohort: string;
  state: string;
  metric: string;
  /** The comparison is a ∘ b (a − b, or a / b for a ratio). */
  a: string;
  b: string;
  /** Unit of the compared medians (ms, bytes). */
  unit: string;
  comparison: ComparisonResult;
  /** Median of b, the reference of a relative margin for a difference (a ratio needs none). */
  referenceMedian?: number | null;
}

export interface CellLine {
  cohort: string;
  path: string;
  state: string;
  metric: string;
  unit: string;
  n: number;
  p50: number | null;
}

const r6 = (v: number | null): number | null => (v === null ? null : Number(v.toPrecision(6)));

export function comparisonDifferencesCsv(lines: readonly ComparisonLine[], margin: PracticalMargin = defaultPracticalMargin): string {
  const row = (l: ComparisonLine): Record<(typeof differencesColumns)[number], string | number | boolean | null> => {
    const c = l.comparison;
    return {
      kind: c.kind === 'ratio' ? 'median_ratio' : 'median_difference',
      cohort: l.cohort,
      state: l.state,
      metric: l.metric,
      a: l.a,
      b: l.b,
      service: null,
      artifact: null,
      operation: null,
      unit: c.kind === 'ratio' ? 'ratio' : l.unit,
      value: r6(c.observed),
      low: r6(c.low),
      high: r6(c.high),
      confidence: c.confidence,
      resamples: c.resamples,
      n: c.rounds,
      detected: c.observed === null ? null : c.findings.detected,
      sessions: c.sessions,
      sessions_same_direction: c.sessions ? c.sameDirection : null,
      session_low: r6(c.sessionLow),
      session_high: r6(c.sessionHigh),
      order_effect: null,
      verdict:
        c.observed === null
          ? null
          : fixedDifferenceVerdict(
              { observed: c.observed, low: c.low, high: c.high, sessionLow: c.sessionLow, sessionHigh: c.sessionHigh, detected: c.findings.detected },
              c.kind === 'ratio' ? 'ratio' : 'difference',
              l.referenceMedian ?? null,
              margin,
            ).verdict,
    };
  };
  return csv(
    differencesColumns,
    lines.map((l) => {
      const r = row(l);
      return differencesColumns.map((k) => r[k]);
    }),
  );
}

export function comparisonStatisticsCsv(cells: readonly CellLine[]): string {
  return csv(
    ['cohort', 'path', 'state', 'metric', 'unit', 'n', 'p50'],
    cells.map((c) => [c.cohort, c.path, c.state, c.metric, c.unit, c.n, r6(c.p50)]),
  );
}
