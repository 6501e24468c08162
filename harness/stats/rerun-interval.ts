// The rerun interval of a difference a − b (ms): where another run's
// estimate of it should fall — a prediction interval, not a confidence
// interval for this run's own mean.
//
// This run's estimate and a rerun's each carry the within-run error W (the
// variance the 95% interval shows: W = (half-width / z)², z = Φ⁻¹((1+c)/2))
// and their own run offset. A run offset multiplies a cell by a factor; its
// log δ has variance v, and the log ratio of the two cells' factors, δa − δb,
// has variance r (the between-run figures: measured on replicates, else the
// host kind's, host-kind-drift.ts). A run moves a − b by about a·δa − b·δb;
// with cov(δa, δb) = v − r/2 its variance is
//   B = v·(a − b)² + a·b·r
// (a factor common to both cells, r = 0, moves it by (a − b)·δ; independent
// offsets, r = 2v, give v·(a² + b²)). The difference between this run's
// estimate and a rerun's then has variance 2·W + 2·B, and the interval is
// observed ± z·√(that). With v = r = 0 it is the 95% interval widened by √2:
// a rerun's own sampling error alone.
import { normalQuantile } from './normal-quantile.js';

export interface RerunInput {
  observedMs: number | null;
  /** The difference's interval at `confidence` (within-run). */
  lowMs: number | null;
  highMs: number | null;
  confidence: number;
  /** The two cells' medians (ms). */
  aMs: number;
  bMs: number;
  /** Between-run variance of a cell's log launch time. */
  runLogVariance: number;
  /** Between-run variance of the log ratio of the two cells. */
  ratioRunLogVariance: number;
}

export interface RerunInterval {
  lowMs: number;
  highMs: number;
  /** The between-run share of the rerun variance. */
  betweenRunShare: number;
}

export function rerunInterval(x: RerunInput): RerunInterval | null {
  if (x.observedMs === null || x.lowMs === null || x.highMs === null || !(x.runLogVariance >= 0) || !(x.ratioRunLogVariance >= 0)) return null;
  const z = normalQuantile((1 + x.confidence) / 2);
  const within = ((x.highMs - x.lowMs) / (2 * z)) ** 2;
  const between = x.runLogVariance * (x.aMs - x.bMs) ** 2 + Math.max(0, x.aMs * x.bMs) * x.ratioRunLogVariance;
  const half = z * Math.sqrt(2 * within + 2 * between);
  const total = within + between;
  return { lowMs: x.observedMs - half, highMs: x.observedMs + half, betweenRunShare: total > 0 ? between / total : 0 };
}
