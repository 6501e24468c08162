// The shape of analysis.json, written by the analyze stage and read by report.
// Every duration is in milliseconds (fields ending in Ms), every count of bytes
// in bytes; preparation costs keep the seconds of preparation.json.
import type { FactorDifference } from './difference-record.js';
import type { AnalysisFindings } from './finding-types.js';
import type { CanaryResult } from './canary-statistics.js';
import type { CrossClassResult } from './cross-class.js';
import type { SessionNoiseResult } from './session-noise.js';
import type { HostEffect } from './host-effects.js';
import type { ByteSummary } from '../stats/byte-summary.js';
import type { Dominance } from '../stats/dominance.js';
import type { AnalysisRules, MetricId } from '../config/analysis-rules.js';
import type { ComparisonVerdict } from './comparison-verdict.js';
import type { DifferenceKey, MsComparison } from './difference-record.js';
import type { LaunchIdentity } from './sample-data.js';

export const analysisFormat = 'benchgraph-analysis/5';
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

/** Position effect of a cell (stats/position-effect.ts): median at the last positions / median at the first ones. */
export interface PositionEffectResult {
  /** P: the paths of the cohort's rounds. */
  positions: number;
  firstPositions: number[];
  lastPositions: number[];
  nFirst: number;
  nLast: number;
  firstMedianMs: number;
  lastMedianMs: number;
  ratio: number;
  low: number;
  high: number;
  confidence: number;
  resamples: number;
  byPosition: { position: number; n: number; medianMs: number }[];
  /** The interval excludes 1 and the ratio (or its inverse) reaches analysis.carryover.min_ratio. */
  flagged: boolean;
}

/** Predecessor effect of a cell (stats/predecessor-effect.ts): slowest / fastest median by the path run just before. */
export interface PredecessorEffectResult {
  /** previous null: the cell's path ran first in its round. */
  byPredecessor: { previous: string | null; n: number; medianMs: number }[];
  slowAfter: string | null;
  fastAfter: string | null;
  ratio: number;
  low: number;
  high: number;
  /** Bonferroni level of the interval: 1 - (1 - analysis.bootstrap.confidence) / pairs. */
  confidence: number;
  pairs: number;
  resamples: number;
  /** The interval lies above 1 and the ratio reaches analysis.carryover.min_ratio. */
  flagged: boolean;
}

export type OrderEffectKind = 'position' | 'predecessor';

/**
 * A cell's carryover verdict: 'order-effect' (flagged), 'unresolved' (not
 * flagged, but an effect's ratio reaches analysis.carryover.min_ratio while its
 * interval includes 1), 'within-size' (every effect below the size),
 * 'not-estimated' (neither effect computable).
 */
export type CarryoverVerdict = 'order-effect' | 'unresolved' | 'within-size' | 'not-estimated';

/** Named finding: a cell whose launches depend on where, or after what, they ran. */
export interface OrderEffectFinding {
  finding: 'order-effect';
  cohort: string;
  path: string;
  state: string;
  metric: MetricId;
  by: OrderEffectKind[];
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
  /** Median of each session (type 7), sessions ascending. */
  sessions: { session: number; n: number; p50Ms: number }[];
  /** Largest / smallest session median; null with one session or a non-positive median. */
  sessionSpread: number | null;
  /** Between-session and between-round-within-session variance (ms²), and which level dominates the variance of the cell's mean. */
  variance: { betweenSessions: number | null; withinSessions: number | null; dominant: 'sessions' | 'rounds' | null };
  /** Carryover diagnostics; null when not computable (one position, too few launches). */
  position: PositionEffectResult | null;
  predecessor: PredecessorEffectResult | null;
  /** True when the position or the predecessor effect is flagged: the finding "order effect". */
  orderEffect: boolean;
  carryover: CarryoverVerdict;
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

/** One difference a - b: its key and its paired comparison (analysis/difference-record.ts, the one record). */
export interface DifferenceResult extends DifferenceKey, MsComparison {
  metric: MetricId;
  /**
   * The four-outcome verdict (comparison-verdict.ts): lower, higher, equivalent within analysis.practical
   * of b's median, or undecided. Always set in analysis.json; absent only where the sample stage's
   * confirmation step judges differences.
   */
  verdict?: ComparisonVerdict;
  /** With design.confirm on: the verdict on the planned sessions and with the confirmation session (confirmation-verdicts.ts). */
  confirmation?: DifferenceConfirmation;
  /**
   * Where a rerun's estimate should fall (stats/rerun-interval.ts): this interval widened by a rerun's
   * own sampling error and the between-run figure of AnalysisResult.rerun; null without an interval.
   * Always set in analysis.json; absent only where the sample stage's confirmation step judges differences.
   */
  rerun?: RerunEstimate | null;
  /** With replicate runs (same sample-stage key): the difference's variance components over them and its estimate per host. */
  replicates?: DifferenceReplicates;
  /** In a run that sampled until decided (design.adaptive): the sequential rule's verdict, which `verdict` and `detected` then follow (comparison/sequential-analysis.ts). */
  sequential?: SequentialVerdict;
  /**
   * How far the two-level interval's endpoints move, in ms, when it is drawn again under stats/seed-spread.ts's
   * other seeds (the larger move of either endpoint); null without an interval. The report prints the endpoints
   * to the digits it supports. Set by the analysis; absent where the confirmation step judges differences.
   */
  seedSpreadMs?: number | null;
}

/** A difference judged by the sequential rule at the first look that stopped (comparison/sequential-analysis.ts). */
export interface SequentialVerdict extends ComparisonVerdict {
  /** Sessions seen at the look that decided, or at the last look when none stopped. */
  look: number;
  /** False: no look stopped (undecided with the sessions run). */
  stopped: boolean;
  /** The look's estimate and sequential interval of the ratio of means a / b (geometric, per session); null before the first look. */
  ratio: number | null;
  ratioLow: number | null;
  ratioHigh: number | null;
}

export interface RerunEstimate {
  lowMs: number;
  highMs: number;
  /** Share of a rerun's variance that is between-run (the rest: sampling within a run). */
  betweenRunShare: number;
}

/** A variance component of a nested level (stats/nested-variance-components.ts, REML). */
export interface LevelComponent {
  level: 'hosts' | 'runs' | 'sessions' | 'rounds';
  units: number;
  /** null when these data cannot estimate the level (one unit under each unit above it). */
  variance: number | null;
  low: number | null;
  high: number | null;
}

export interface DifferenceReplicates {
  /** Of the per-round difference a − b (ms²), hosts → runs → sessions → rounds. */
  components: LevelComponent[];
  /** median(a) − median(b) over each host's runs. */
  hostEstimates: { host: string; runs: number; observedMs: number }[];
  /** Smallest and largest host estimate; null with one host. */
  crossHost: { lowMs: number; highMs: number } | null;
}

/** What the rerun intervals assume, and the replicates they were measured on. */
export interface RerunScope {
  /** 'replicates': the between-run figure was measured on this run's replicates; 'host kind': one run, the documented figure is assumed. */
  source: 'replicates' | 'host kind';
  /** Between-run variance of a cell's natural-log launch time the intervals use (with replicates: theirs pooled with the host kind's). */
  runLogVariance: number;
  /** The replicates' own between-run variance (the run component, else the host component with one run per host); null with one run. */
  measuredRunLogVariance: number | null;
  /** Between-run variance of the per-round log ratio of a difference's two cells the intervals use (pooled like runLogVariance). */
  ratioRunLogVariance: number;
  /** The replicates' own figure for it (mean over differences); null with one run. */
  measuredRatioRunLogVariance: number | null;
  /** Between-run contrasts behind measuredRunLogVariance; 0 with one run. */
  driftDegreesOfFreedom: number;
  /** Where that figure comes from. */
  figureSource: string;
  /** The levels each 95% interval covers, and those each rerun interval covers. */
  intervalLevels: ('sessions' | 'rounds')[];
  rerunLevels: ('runs' | 'sessions' | 'rounds')[];
  /** This run and its replicates, with their host (fingerprint digest). */
  runs: { id: string; host: string }[];
  hosts: number;
  /** With two hosts or more: the between-host variance of a cell's log launch time; else null. */
  hostLogVariance: number | null;
  /** Per cell and metric: the components of the log launch time over the replicates; empty with one run. */
  cells: { cohort: string; path: string; state: string; metric: MetricId; components: LevelComponent[] }[];
  /** Per other host of the replicates: its common factor on the Ready cells and each path's effect beyond it (host-effects.ts); empty with one host. */
  hostEffects?: HostEffect[];
  /** Same-key archived runs on another host class (by the canary), left out of the rerun interval (same-class-replicates.ts). */
  otherClassRuns?: string[];
}

/** A difference's verdict (undecided-differences.ts). */
export type Verdict = 'detected' | 'not detected' | 'undecided';

/** What the sample stage's confirm.json (design.confirm) says the analysis needs. */
export interface ConfirmationInput {
  /** design.sessions: the sessions every cell was planned to have. */
  plannedSessions: number;
  /** The confirmation session's number (plannedSessions + 1), or null when nothing was undecided. */
  session: number | null;
}

export interface DifferenceConfirmation {
  /** On the planned sessions alone. */
  verdictBefore: Verdict;
  /** On every session that visited both arms. */
  verdictAfter: Verdict;
  /** The confirmation session visited both arms of this difference. */
  visited: boolean;
  /** Undecided on the planned sessions, detected with the confirmation session. */
  confirmed: boolean;
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
  /** With comparisons along the unit or the condition (analysis.comparisons[].factor): their differences (factor-differences.ts). */
  factorDifferences?: FactorDifference[];
  /** Every cell flagged "order effect", in cell order. */
  orderEffects: OrderEffectFinding[];
  bytes: BytesResult[];
  failures: FailureCount[];
  /** null when no preparation.json was among the inputs. */
  preparation: PreparationCost[] | null;
  /** Median time from spawn to each phase mark, per cell, in the order the marks come. */
  phaseMarks: { cohort: string; path: string; state: string; name: string; n: number; p50Ms: number }[];
  /** Each span of each cell whose path prints phase marks (analysis/phase-spans.ts): median and two-level interval. */
  spans: SpanStatistics[];
  /** Every valid formal launch's spans (analysis/phase-spans.ts), the rows the span statistics use; published as phases.csv. */
  launchSpans: LaunchSpans[];
  /** Per configured comparison and state, where a or b prints marks: median span of a minus median span of b, per span. */
  spanDifferences: SpanDifference[];
  /** Recommended sessions x rounds for the next run (Ready cells), by the variance components of this one. */
  nextRun: NextRunRecommendation;
  /** Present when the run sampled until decided (design.adaptive): the verdicts are the sequential rule's (comparison/sequential-analysis.ts). */
  decision?: { rule: 'sequential'; minSessions: number; maxSessions: number; alpha: number };
  /** Present when the sample stage ran with design.confirm on (its confirm.json). */
  confirmation?: ConfirmationInput;
  /** What every difference's rerun interval assumes (its between-run figure) and the replicates pooled. */
  rerun: RerunScope;
  /** The host canary per session and over the run (analysis/canary-statistics.ts); absent when the samples hold no canary launch. */
  canary?: CanaryResult;
  /** Where the Ready ratios hold across the archive's host classes (cross-class.ts); absent without a canary or an archive. */
  crossClass?: CrossClassResult;
  /** The noise flag calibrated on the canary, and the steady background of every session (analysis/session-noise.ts); absent without session records. */
  noise?: SessionNoiseResult;
  /**
   * The named findings the report states and only words (analysis-findings.ts, schemas/analysis-findings.schema.json):
   * the stack rule, sessions disagreeing in size, the source report's findings. Always set by the analyze stage.
   */
  findings?: AnalysisFindings;
}

/**
 * One span of one cell: the time between consecutive phase marks of a launch
 * (the first from spawn, `to Ready` from the last mark to Ready), ms. A span
 * a launch lacks counts as 0 ms. Median over the cell's valid formal launches,
 * two-level bootstrap interval (sessions, then rounds), level rules.bootstrap.
 */
export interface SpanStatistics {
  cohort: string;
  path: string;
  state: string;
  name: string;
  /** 1-based order of the span in the cell. */
  order: number;
  n: number;
  sessions: number;
  p50Ms: number | null;
  lowMs: number | null;
  highMs: number | null;
}

/** Median span of a minus median span of b (Ready launches of one cohort and state, metric ready): the record of a difference, named by its span. */
export interface SpanDifference extends DifferenceKey, MsComparison {
  name: string;
  order: number;
}

/** One launch's spans, in mark order, `to Ready` last. */
export interface LaunchSpans extends LaunchIdentity {
  readyMs: number;
  /** In mark order; the last is `to Ready` (mark and atMs null: it ends at Ready). `name` is the span, `mark` the mark that ends it. */
  spans: { seq: number; name: string; mark: string | null; atMs: number | null; spanMs: number }[];
}

export interface NextRunRecommendation {
  /** False when no design within the limits reaches the target, or no cell could be planned (fewer than 2 sessions). */
  reachable: boolean;
  sessions: number;
  rounds: number;
  launches: number;
  /** Launch time of the recommended design plus session start-ups, seconds. */
  costS: number;
  /**
   * The costs the plan priced: a session's start (sessionStartSource: 'measured' from the run's launch start times,
   * preflight and warmup only; 'configured'; or the 'default'), a launch's wall time (launchMsSource: 'measured' spacing of
   * formal starts, or mean 'completion'), and the balanced order's rounds multiple. The sources and the multiple are absent
   * in analyses written before them.
   */
  target: {
    relativeHalfWidth: number;
    confidence: number;
    sessionStartS: number;
    sessionStartSource?: 'measured' | 'configured' | 'default';
    launchMs: number;
    launchMsSource?: 'measured' | 'completion';
    launchesPerRound: number;
    roundsMultiple?: number;
  };
  /** smallestDetectableMs: the smallest true difference the planned design detects in 80% of runs (stats/power.ts); null below 3 sessions, absent in analyses written before it. */
  /**
   * With design.confirm on, one more session over the cells of the differences
   * undecided here (on the planned sessions): its launches at the planned
   * rounds (this run's rounds when no design is recommended) and its cost; null when none is undecided; absent in analyses written before it.
   */
  confirmation?: { undecided: number; cells: number; rounds: number; launches: number; costS: number } | null;
  cells: {
    id: string;
    dominant: 'sessions' | 'rounds' | null;
    optimalRounds: number;
    targetMs: number;
    halfWidthMs: number;
    smallestDetectableMs?: number | null;
  }[];
  unplanned: string[];
}
