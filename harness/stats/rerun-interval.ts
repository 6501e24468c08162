// The rerun interval of a difference a − b (ms): where another run's
// estimate of it should fall — a prediction interval, not a confidence
// interval for this run's own mean.
//
// This run's estimate and a rerun's each carry the within-run error W (the
// variance the 95% interval shows: W = (half-width / z)², z = Φ⁻¹((1+c)/2))
// and their own run offset. A run offset multiplies a cell by a factor; its
// log has variance v (the between-run figure: measured on replicates, else
// the host kind's, host-kind-drift.ts). Taking the two cells' log offsets as
// independent, a run moves a − b by a·δa − b·δb, variance v·(a² + b²) —
// more than a factor common to every cell would, (a − b)²·v, so the interval
// errs wide when a run moves every cell alike. The difference between this
// run's estimate and a rerun's then has variance
//   2·W + 2·v·(a² + b²)
// and the interval is observed ± z·√(that). With v = 0 it is the 95% interval
// widened by √2: a rerun's own sampling error alone.
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
}

export interface RerunInterval {
  lowMs: number;
  highMs: number;
  /** The between-run share of the rerun variance. */
  betweenRunShare: number;
}

export function rerunInterval(x: RerunInput): RerunInterval | null {
  if (x.observedMs === null || x.lowMs === null || x.highMs === null || !(x.runLogVariance >= 0)) return null;
  const z = normalQuantile((1 + x.confidence) / 2);
  const within = ((x.highMs - x.lowMs) / (2 * z)) ** 2;
  const between = x.runLogVariance * (x.aMs ** 2 + x.bMs ** 2);
  const half = z * Math.sqrt(2 * within + 2 * between);
  const total = within + between;
  return { lowMs: x.observedMs - half, highMs: x.observedMs + half, betweenRunShare: total > 0 ? between / total : 0 };
}
