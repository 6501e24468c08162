// Byte counts of one cell: they are expected to be identical across launches
// of the same path and state; the summary flags when they are not.
import { quantileSorted } from './quantile.js';
import { sortedAscending } from './sorted-values.js';

export interface ByteSummary {
  /** Launches with a count (null counts, e.g. a path without a counted service, are left out). */
  n: number;
  min: number | null;
  median: number | null;
  max: number | null;
  /** True when every counted launch of the cell has the same value. */
  identical: boolean;
  distinct: number;
}

export function summarizeBytes(values: readonly number[]): ByteSummary {
  const sorted = sortedAscending(values);
  const n = sorted.length;
  if (n === 0) return { n, min: null, median: null, max: null, identical: true, distinct: 0 };
  let distinct = 1;
  for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  return { n, min: sorted[0]!, median: quantileSorted(sorted, 0.5), max: sorted[n - 1]!, identical: distinct === 1, distinct };
}

/** Fraction by which `value` is smaller than `reference` (0.938 = 93.8% smaller); null when undefined. */
export function relativeReduction(reference: number | null, value: number | null): number | null {
  if (reference === null || value === null || reference <= 0) return null;
  return (reference - value) / reference;
}
