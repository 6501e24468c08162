// The shape of analysis.json, written by the analyze stage and read by report.
// Every duration is in milliseconds (fields ending in Ms), every count of bytes
// in bytes; preparation costs keep the seconds of preparation.json.
import type { ByteSummary } from '../stats/byte-summary.js';
import type { Dominance } from '../stats/dominance.js';
import type { AnalysisRules, MetricId } from './analysis-rules.js';

export const analysisFormat = 'benchgraph-analysis/1';
export const quantileDefinition = 'Hyndman-Fan type 7 (linear interpolation between order statistics; R default, NumPy linear)';

export interface PhaseCount {
  cohort: string;
  phase: string;
  launches: number;
  failures: number;
  rounds: number;
}

export interface ClusterGroupMs {
  n: number;
  share: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export interface CellStatistics {
  cohort: string;
  path: string;
  state: string;
  metric: MetricId;
  /** Formal launches of the cell, failed ones included. */
  launches: number;
  failures: number;
  /** Valid observations (ok launches with a value). */
  n: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p95ReferenceOnly: boolean;
  minMs: number | null;
  maxMs: number | null;
  /** True when the cluster rule separates the values into more than one group. */
  split: boolean;
  groups: ClusterGroupMs[];
}

export interface DominanceResult {
  cohort: string;
  state: string;
  metric: MetricId;
  a: string;
  b: string;
  nA: number;
  nB: number;
  result: Dominance;
}

export interface DifferenceResult {
  cohort: string;
  state: string;
  metric: MetricId;
  a: string;
  b: string;
  /** Complete rounds (values of both paths) resampled. */
  rounds: number;
  /** median(a) - median(b) over the complete rounds. */
  observedMs: number | null;
  lowMs: number | null;
  highMs: number | null;
  resamples: number;
  confidence: number;
  /** False when the interval contains 0 ("no difference detected"). */
  detected: boolean;
}

export interface BytesResult {
  cohort: string;
  path: string;
  state: string;
  contentBytes: ByteSummary;
  responseBytes: ByteSummary;
}

export interface FailureCount {
  cohort: string;
  path: string;
  state: string;
  reason: string;
  count: number;
}

export interface PreparationCost {
  service: string;
  artifact: string;
  operation: string;
  seconds: number;
}

export interface AnalysisResult {
  format: string;
  quantile: string;
  rules: AnalysisRules;
  /** Launches per cohort and phase; only formal launches enter the statistics. */
  phases: PhaseCount[];
  cells: CellStatistics[];
  dominance: DominanceResult[];
  differences: DifferenceResult[];
  bytes: BytesResult[];
  failures: FailureCount[];
  /** null when no preparation.json was among the inputs. */
  preparation: PreparationCost[] | null;
}
