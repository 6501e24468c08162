// Pure: the one comparison record of the default experiment. A difference is
// named by its DifferenceKey {cohort, state, metric, a, b} and carries the
// paired comparison of stats/paired-comparison.ts (the statistic every
// experiment uses) in milliseconds: the observed a - b of medians, its
// two-level interval, its between-session t interval, the direction in each
// session and the named findings (detected, direction, sessions disagreeing
// in size). The four-outcome verdict (comparison-verdict.ts) is added once the
// cells are known (withVerdicts), since its margin is relative to b's median.
// Lazy-startup's differences, the phase-span differences and the confirmation
// step build their rows here; compare and history read the same columns from
// differences.csv (report/comparison-csv.ts, the one writer).
import { judgedComparison, type JudgedComparison } from './direction-rule.js';
import type { BootstrapOptions } from '../stats/paired-bootstrap.js';
import type { PairedSession } from '../stats/two-level-bootstrap.js';
import { fixedDifferenceVerdict } from './difference-verdict.js';
import type { ComparisonVerdict } from './comparison-verdict.js';
import type { PracticalMargin } from '../config/practical-margin.js';
import type { MetricId } from '../config/analysis-rules.js';

/**
 * The identity of a difference: a - b of one metric. Between two paths (the
 * arm) in one cohort and state; or, with `factor`, between two cohorts (unit:
 * `path` and `state` held fixed, `cohort` empty) or two states (condition:
 * `cohort` and `path` held fixed, `state` empty).
 */
export interface DifferenceKey {
  cohort: string;
  state: string;
  metric: string;
  a: string;
  b: string;
  factor?: 'unit' | 'condition';
  path?: string;
}

/**
 * One difference a − b along a factor (factor-differences.ts): the one
 * comparison record's key with its factor, the path and the level of the
 * third factor held fixed, and the compared factor's own field empty.
 */
export interface FactorDifference extends DifferenceKey, MsComparison {
  factor: 'unit' | 'condition';
  path: string;
  metric: MetricId;
  verdict: ComparisonVerdict;
}

/** One string per key, for maps (an arm difference's as before factors existed). */
export function differenceKey(d: DifferenceKey): string {
  return [d.cohort, d.state, d.metric, d.a, d.b, ...(d.factor ? [d.factor, d.path ?? ''] : [])].join('\u0000');
}

/**
 * `numpy cold ready: docker − oci-full`; along another factor, its fixed levels first and the factor last:
 * `lazy cold ready: numpy − shell (cohorts)`, `numpy lazy ready: cold − warm (states)`, so no two keys share a label.
 */
export function differenceLabel(d: DifferenceKey): string {
  if (d.factor === 'unit') return `${d.path} ${d.state} ${d.metric}: ${d.a} − ${d.b} (cohorts)`;
  if (d.factor === 'condition') return `${d.cohort} ${d.path} ${d.metric}: ${d.a} − ${d.b} (states)`;
  return `${d.cohort} ${d.state} ${d.metric}: ${d.a} − ${d.b}`;
}

/** The cells {cohort, path, state} of side a and side b of a difference. */
export function comparedCells(d: DifferenceKey): [{ cohort: string; path: string; state: string }, { cohort: string; path: string; state: string }] {
  const side = (level: string) =>
    d.factor === 'unit'
      ? { cohort: level, path: d.path ?? '', state: d.state }
      : d.factor === 'condition'
        ? { cohort: d.cohort, path: d.path ?? '', state: level }
        : { cohort: d.cohort, path: level, state: d.state };
  return [side(d.a), side(d.b)];
}

/** A paired comparison of durations, in the field names of analysis.json. */
export interface MsComparison {
  /** Complete rounds (values of both paths) resampled, over all sessions. */
  rounds: number;
  /** Sessions with at least one complete round. */
  sessions: number;
  /** The difference within each session and its sign (1: a larger, -1: b larger). */
  perSession: { session: number; rounds: number; observedMs: number; direction: -1 | 0 | 1 }[];
  /** Sessions whose difference has the sign of the pooled one. */
  sameDirection: number;
  /** False with fewer than 3 sessions: between-session uncertainty is not estimated. */
  betweenSessionEstimated: boolean;
  /** median(a) - median(b) over the complete rounds. */
  observedMs: number | null;
  lowMs: number | null;
  highMs: number | null;
  resamples: number;
  confidence: number;
  /** Student's t interval over the per-session differences (K - 1 degrees of freedom); null with fewer than 3 sessions. */
  sessionLowMs: number | null;
  sessionHighMs: number | null;
  /** The detection rule (stats/detection-rule.ts): the two-level interval excludes 0 and, with 3 or more sessions, so does the between-session one. */
  detected: boolean;
  /** The named findings: sessions disagreeing in size (stats/paired-comparison.ts), and the direction, size uncertain and replication count of the one direction rule (direction-rule.ts). */
  findings: Omit<JudgedComparison['findings'], 'detected'>;
}

/** The paired comparison a - b of these sessions as a record's fields. */
export function msComparison(sessions: readonly PairedSession[], options: BootstrapOptions): MsComparison {
  const c = judgedComparison(sessions, 'difference', options);
  const { detected, ...findings } = c.findings;
  return {
    rounds: c.rounds,
    sessions: c.sessions,
    perSession: c.perSession.map((s) => ({ session: s.session, rounds: s.rounds, observedMs: s.observed, direction: s.direction })),
    sameDirection: c.sameDirection,
    betweenSessionEstimated: c.betweenSessionEstimated,
    observedMs: c.observed,
    lowMs: c.low,
    highMs: c.high,
    resamples: c.resamples,
    confidence: c.confidence,
    sessionLowMs: c.sessionLow,
    sessionHighMs: c.sessionHigh,
    detected,
    findings,
  };
}

/** The record's four-outcome verdict, b's median (ms) the reference of the practical margin. */
export function recordVerdict(d: MsComparison, referenceMs: number | null, margin: PracticalMargin): ComparisonVerdict {
  return fixedDifferenceVerdict(
    {
      observed: d.observedMs,
      low: d.lowMs,
      high: d.highMs,
      sessionLow: d.sessionLowMs,
      sessionHigh: d.sessionHighMs,
      detected: d.detected,
      // An analysis.json written before the direction rule has no replication count: its sizeUncertain is not this rule's.
      sizeUncertain: d.findings.sizeUncertain && d.findings.sessionsAloneExcluding !== undefined,
    },
    'difference',
    referenceMs,
    margin,
  );
}

/** Each difference with its verdict, the median of b's cell (same cohort, state and metric) the margin's reference. */
export function withVerdicts<T extends DifferenceKey & MsComparison>(
  differences: readonly T[],
  cells: readonly { cohort: string; path: string; state: string; metric: string; p50Ms: number | null }[],
  margin: PracticalMargin,
): (T & { verdict: ComparisonVerdict })[] {
  const median = new Map(cells.map((c) => [differenceKey({ cohort: c.cohort, state: c.state, metric: c.metric, a: c.path, b: '' }), c.p50Ms]));
  return differences.map((d) => ({ ...d, verdict: recordVerdict(d, median.get(differenceKey({ ...d, a: d.b, b: '' })) ?? null, margin) }));
}
