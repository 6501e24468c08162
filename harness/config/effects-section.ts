// The effects section of a pipeline file (pure types, schemas/effects.schema.json):
// a row pairs a `before` and an `after` configuration of the same workload,
// each a command template like a pipeline path's launch, measured on one
// metric over the design's sessions of paired rounds.

/** The source's table a row belongs to. */
export type EffectSystem = 'gVisor' | 'Firecracker' | 'Both';

/** ready | completion (from the launch helper) | printed:KEY (a KEY=NUMBER line the workload prints). */
export type EffectMetric = 'ready' | 'completion' | `printed:${string}`;

export interface EffectSide {
  /** Launched and measured; placeholders: {marker}, {row_dir}, {sandbox}, {paths}, {image_root}. */
  launch: string[];
  /** Run before each launch of this side, unmeasured (e.g. dropping the page cache). */
  prepare: string[][];
}

export interface EffectRow {
  /** Unique, [a-z0-9-]; names the row's work folder. */
  id: string;
  /** The optimization, as the table shows it. */
  name: string;
  system: EffectSystem;
  /** What in the source this row stands for. */
  source: string;
  /** Doctor requirement ids (sandbox-requirements.ts); a row with one unmet is not runnable here. */
  requires: string[];
  /** Image id of artifacts.images whose root the row's sandbox runs (unpacked to {image_root}). */
  image?: string;
  /** Run once before the row's rounds, unmeasured; KEY=NUMBER lines they print are kept as row facts. */
  setup: string[][];
  metric: EffectMetric;
  /** Unit of the metric as printed in the table (ms for ready/completion). */
  unit: string;
  /** The row also asks that P90 does not get worse. */
  p90: boolean;
  before: EffectSide;
  after: EffectSide;
}

export interface EffectsSection {
  rows: EffectRow[];
}

export type EffectSideName = 'before' | 'after';
