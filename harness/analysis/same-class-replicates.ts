// Pure: the replicates a rerun interval may rest on (issue 43). A rerun
// interval says where a rerun on this host class should land, so it pools
// only the archived same-key runs whose host canary puts them on this run's
// class (stats/host-class.ts): a same-key replicate on another class (PTI on:
// every cell ×1.91, canary mem ×5.49) landed in 12 of 56 published rerun
// intervals, and pooling it would widen them to cover a move they do not
// describe. A run without a canary (archived before it was kept), or this run
// without one, cannot be placed: it is kept, and counted as such.
import { median } from '../stats/quantile.js';
import { hostClasses, type CanaryMedians } from '../stats/host-class.js';
import type { CanaryLaunchRow } from './canary-statistics.js';
import type { ReplicateRun } from './replicate-runs.js';

/** Per piece, the median completion (ms) of a run's ok canary launches; null when it has none. */
export function canaryPieceMedians(rows: readonly CanaryLaunchRow[]): CanaryMedians | null {
  const byPiece = new Map<string, number[]>();
  for (const r of rows) if (r.ok && r.completionMs !== null && r.completionMs > 0) byPiece.set(r.piece, [...(byPiece.get(r.piece) ?? []), r.completionMs]);
  return byPiece.size ? Object.fromEntries([...byPiece].map(([piece, xs]) => [piece, median(xs)])) : null;
}

export interface SameClassReplicates {
  /** The replicates on this run's class, and those that cannot be placed (no canary on either side). */
  kept: ReplicateRun[];
  /** The ids of the replicates on another class, left out. */
  otherClass: string[];
  /** The ids of the kept replicates whose class is not known. */
  unplaced: string[];
}

/**
 * `archive`: the canaries of every archived run of the experiment, whatever its key: the class rule's spread of each piece
 * rests on them (a few replicates alone leave it too few degrees of freedom to tell any class apart).
 */
export function sameClassReplicates(
  own: CanaryMedians | null,
  runs: readonly (ReplicateRun & { canary?: CanaryMedians | null })[],
  archive: readonly CanaryMedians[] = [],
): SameClassReplicates {
  const placed = runs.filter((r) => r.canary);
  if (!own || !placed.length) return { kept: [...runs], otherClass: [], unplaced: runs.map((r) => r.id) };
  // each run once: the replicates are in the archive too
  const others = archive.filter((c) => !placed.some((r) => JSON.stringify(r.canary) === JSON.stringify(c)) && JSON.stringify(c) !== JSON.stringify(own));
  // this run is placed against the archive: its own distance does not widen the spread it is held to
  const classes = hostClasses([own, ...placed.map((r) => r.canary!), ...others], [0]).classes;
  const mine = new Set(classes.find((c) => c.includes(0)) ?? [0]);
  const other = new Set(placed.filter((_, i) => !mine.has(i + 1)).map((r) => r.id));
  return {
    kept: runs.filter((r) => !other.has(r.id)),
    otherClass: runs.filter((r) => other.has(r.id)).map((r) => r.id),
    unplaced: runs.filter((r) => !r.canary).map((r) => r.id),
  };
}
