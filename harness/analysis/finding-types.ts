// The shapes of analysis.json's named findings (schemas/analysis-findings.schema.json):
// the types only, so that analysis-result.ts can hold them without importing the
// modules that decide them (analysis-findings.ts, source-verdicts.ts).
import type { DirectionStatus } from './direction-status.js';
import type { DifferenceKey } from './difference-record.js';

export type FindingKind = 'p50' | 'difference' | 'dominance' | 'content-reduction';

/** experiment.reference.findings[] (schemas/experiment.schema.json), tolerance_ratio defaulted. */
export interface SourceFinding {
  id: string;
  cohort: string;
  state?: 'cold' | 'warm';
  metric: 'ready' | 'completion';
  kind: FindingKind;
  a?: string;
  b?: string;
  value?: number;
  low?: number;
  high?: number;
  /**
   * The magnitude band: a magnitude holds when this run's figure over the source's (a P50, a
   * difference, a reduction) lies within [1 / toleranceRatio, toleranceRatio] (magnitudeBand).
   */
  toleranceRatio: number;
  statement: string;
  /** Why this run cannot answer the finding; the verdict is then 'not comparable'. */
  notComparable: string | null;
  /** Why its size cannot be compared (a path it names runs on another runtime than the source's): judged in direction only. */
  sizeNotComparable?: string | null;
}

export interface SourceReference {
  source: string;
  setup: string | null;
  findings: SourceFinding[];
}

export type Verdict = 'agrees' | 'differs' | 'not measured' | 'not comparable';

/** 'held', 'changed', 'lost' or 'gained', the source as the reference (docs/VERDICTS.md). */
export type Direction = DirectionStatus;

/**
 * The magnitude part of a verdict against the source. It is judged only where there is a size to
 * compare: a P50; a difference both runs detect in the same direction; a reduction in the same
 * direction. It holds when `ratio` lies within the finding's band [1 / toleranceRatio,
 * toleranceRatio]. Overlapping intervals or a shared sign are never a match (docs/VERDICTS.md).
 */
export interface Magnitude {
  /** judged, and the ratio lies within the band. */
  held: boolean;
  /** False when there is no size to compare: the directions differ, or neither run detects an effect. */
  judged: boolean;
  /** This run's effect over the source's (a difference, a P50, a reduction); null when not judged, or either is 0 or unknown. */
  ratio: number | null;
  /** The band the ratio must lie in, [1 / toleranceRatio, toleranceRatio]. */
  band: [number, number];
  /** Differences: whether the two intervals overlap (shown for context; never what holds the magnitude). */
  overlap: boolean | null;
}

/** What this run measured for a finding, oriented as the finding names a and b. */
export type Measured =
  | { kind: 'p50'; p50Ms: number; n: number }
  // seedSpreadMs: how far the interval's endpoints move with the bootstrap seed (DifferenceResult.seedSpreadMs)
  | { kind: 'difference'; observedMs: number; lowMs: number; highMs: number; confidence: number; detectedSign: -1 | 0 | 1; seedSpreadMs?: number | null }
  | { kind: 'dominance'; n: number; holds: boolean; reverse: boolean }
  | { kind: 'content-reduction'; aBytes: number; bBytes: number; reduction: number };

export interface SourceVerdict {
  finding: SourceFinding;
  /** 'agrees' only when the direction and the magnitude both held. */
  verdict: Verdict;
  /** null where a finding has no direction (a P50) or nothing was measured. */
  direction: Direction | null;
  /** null where a finding has no magnitude (a dominance) or nothing was measured. */
  magnitude: Magnitude | null;
  /** null when not measured; then `missing` says what is missing. */
  measured: Measured | null;
  missing: string | null;
}

export interface StackFinding {
  finding: 'gap-goes-with-stack';
  cohort: string;
  state: string;
  /** Two paths on one stack: their Ready difference. */
  near: DifferenceKey;
  /** One of them against a path on another stack: the detected gap. */
  far: DifferenceKey;
  stack: string;
  /** The path on the other stack, its stack (null: none declared) and whether it is the slower. */
  other: string;
  otherStack: string | null;
  otherSlower: boolean;
  /** |near| / |far|, at most the threshold. */
  nearShare: number;
  threshold: number;
}

export interface SessionsDisagreeFinding extends DifferenceKey {
  finding: 'sessions-disagree-in-size';
  /** Every session has the pooled direction: the direction holds, the size is uncertain. */
  sizeUncertain: boolean;
}

export interface AnalysisFindings {
  /** One per cohort and state where the stack rule holds. */
  stack: StackFinding[];
  sessionsDisagree: SessionsDisagreeFinding[];
  sources: SourceVerdict[];
}
