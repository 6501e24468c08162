// Pure: the one writer of differences.csv (and the statistics.csv of an
// experiment on the model). Every experiment's comparisons are written here
// with the same columns (schemas/report-differences.schema.json), so
// `pipeline compare` and `history` read every experiment's report folders
// alike: the default experiment's records (report/render-csv.ts gives them
// with its rerun and cross-host columns and its preparation costs, through
// comparisonColumns and writeDifferencesCsv), and the ComparisonResults of the
// effect table and commit-diff. A ratio is written
// as kind median_ratio (its null value is 1).
import { defaultPracticalMargin, type PracticalMargin } from '../config/practical-margin.js';
import type { DifferenceKey, MsComparison } from '../analysis/difference-record.js';
import type { Verdict } from '../analysis/comparison-verdict.js';
import { fixedDifferenceVerdict } from '../analysis/difference-verdict.js';
import type { JudgedComparison } from '../analysis/direction-rule.js';
import { csv, fixed } from './format-number.js';

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
  'size_uncertain',
  'sessions_alone_excluding',
] as const;

/** The default report's differences.csv: the shared columns, then each difference's rerun interval, cross-host range and host classes. */
export const launchDifferencesColumns = [
  ...differencesColumns,
  'rerun_low',
  'rerun_high',
  'cross_host_low',
  'cross_host_high',
  'classes',
  'classes_held',
  'cross_class_ratio_low',
  'cross_class_ratio_high',
] as const;

/**
 * With comparisons along the unit or the condition, two more columns: `factor` (unit or condition; empty
 * for a comparison of paths) and `path`, the path held fixed (DifferenceKey).
 */
export const factorColumns = ['factor', 'path'] as const;

type Field = string | number | boolean | null;
type Column = (typeof launchDifferencesColumns)[number] | (typeof factorColumns)[number];

/** One row of differences.csv by column; a column left out is empty. Numbers are written as the caller formatted them. */
export type DifferenceRow = Partial<Record<Column, Field>>;

/** differences.csv with these columns (the shared ones, or the default report's). */
export function writeDifferencesCsv(rows: readonly DifferenceRow[], columns: readonly Column[] = differencesColumns): string {
  return csv(
    columns,
    rows.map((r) => columns.map((k) => r[k] ?? null)),
  );
}

export type Format = (v: number | null) => Field;

/** The columns of one comparison, its key and unit given, its numbers through fmt. */
export function comparisonColumns(
  key: DifferenceKey,
  unit: string,
  fmt: Format,
  c: {
    kind: 'median_difference' | 'median_ratio';
    observed: number | null;
    low: number | null;
    high: number | null;
    sessionLow: number | null;
    sessionHigh: number | null;
    confidence: number;
    resamples: number;
    rounds: number;
    sessions: number;
    sameDirection: number;
    detected: boolean;
    verdict: string | null;
    /** Not detected, but every session alone excludes the null value on one side (analysis/direction-rule.ts). */
    sizeUncertain: boolean;
    sessionsAloneExcluding: number;
  },
): DifferenceRow {
  return {
    kind: c.kind,
    ...(key.factor ? { factor: key.factor, path: key.path ?? null } : {}),
    cohort: key.cohort,
    state: key.state,
    metric: key.metric,
    a: key.a,
    b: key.b,
    unit,
    value: fmt(c.observed),
    low: fmt(c.low),
    high: fmt(c.high),
    confidence: c.confidence,
    resamples: c.resamples,
    n: c.rounds,
    detected: c.observed === null ? null : c.detected,
    sessions: c.sessions,
    sessions_same_direction: c.sessions ? c.sameDirection : null,
    session_low: fmt(c.sessionLow),
    session_high: fmt(c.sessionHigh),
    verdict: c.verdict,
    size_uncertain: c.observed === null ? null : c.sizeUncertain,
    sessions_alone_excluding: c.sessions ? c.sessionsAloneExcluding : null,
  };
}

export const ms3: Format = (v) => (v === null ? null : fixed(v, 3));

export interface ComparisonLine {
  cohort: string;
  state: string;
  metric: string;
  /** The comparison is a ∘ b (a − b, or a / b for a ratio). */
  a: string;
  b: string;
  /** Unit of the compared medians (ms, bytes). */
  unit: string;
  comparison: JudgedComparison;
  /** The verdict the analysis gave the comparison under the user's margin. */
  verdict: Verdict;
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

const r6: Format = (v) => (v === null ? null : Number(v.toPrecision(6)));

/** differences.csv of the lines, each with the verdict its analysis gave it (comparison/judge.ts): written, never computed here. */
export function comparisonDifferencesCsv(lines: readonly ComparisonLine[]): string {
  return writeDifferencesCsv(
    lines.map((l) => {
      const c = l.comparison;
      const ratio = c.kind === 'ratio';
      return comparisonColumns(l, ratio ? 'ratio' : l.unit, r6, {
        ...c,
        kind: ratio ? 'median_ratio' : 'median_difference',
        detected: c.findings.detected,
        verdict: c.observed === null ? null : l.verdict,
        sizeUncertain: c.findings.sizeUncertain,
        sessionsAloneExcluding: c.findings.sessionsAloneExcluding,
      });
    }),
  );
}

export function comparisonStatisticsCsv(cells: readonly CellLine[]): string {
  return csv(
    ['cohort', 'path', 'state', 'metric', 'unit', 'n', 'p50'],
    cells.map((c) => [c.cohort, c.path, c.state, c.metric, c.unit, c.n, r6(c.p50)]),
  );
}

/** A record's shared columns (kind median_difference, in ms) with its verdict. */
export function recordColumns(d: DifferenceKey & MsComparison, verdict: Verdict): DifferenceRow {
  return comparisonColumns(d, 'ms', ms3, {
    kind: 'median_difference',
    observed: d.observedMs,
    low: d.lowMs,
    high: d.highMs,
    sessionLow: d.sessionLowMs,
    sessionHigh: d.sessionHighMs,
    confidence: d.confidence,
    resamples: d.resamples,
    rounds: d.rounds,
    sessions: d.sessions,
    sameDirection: d.sameDirection,
    detected: d.detected,
    verdict,
    // Records of analyses before the one direction rule have no replication count: read as not established.
    sizeUncertain: d.findings.sizeUncertain && d.findings.sessionsAloneExcluding !== undefined,
    sessionsAloneExcluding: d.findings.sessionsAloneExcluding ?? 0,
  });
}
