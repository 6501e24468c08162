// Summary of one cell (cohort x path x state x metric): n, P50, P95, min, max.
// Quantiles are type 7 (quantile.ts). P95 is marked reference-only while the
// cell holds fewer observations than the configured threshold.
import { quantileSorted } from './quantile.js';

export interface CellSummary {
  n: number;
  p50: number | null;
  p95: number | null;
  /** True while n is below the threshold: P95 is shown but must not carry a conclusion. */
  p95ReferenceOnly: boolean;
  min: number | null;
  max: number | null;
}

export function summarizeSorted(sorted: readonly number[], p95MinN: number): CellSummary {
  const n = sorted.length;
  if (n === 0) return { n, p50: null, p95: null, p95ReferenceOnly: true, min: null, max: null };
  return {
    n,
    p50: quantileSorted(sorted, 0.5),
    p95: quantileSorted(sorted, 0.95),
    p95ReferenceOnly: n < p95MinN,
    min: sorted[0]!,
    max: sorted[n - 1]!,
  };
}
