// Pure: growth of a time with a size as a straight line, t = floor + cost·n,
// by least squares over every observation, with a percentile bootstrap
// interval for the floor and the cost (a resample draws, within each size, as
// many observations as it has, with replacement, seeded, so every size stays
// in the fit). Beside it, how well a line and a power law describe the same
// observations on the log scale: the root mean square of log(observed) −
// log(fitted), so a 10% miss counts alike at 100 files and at 100,000.
import { bootstrapFit, type BootstrapFitBasis, type BootstrapFitOptions } from './linear-fit.js';

export interface FloorCostFit extends BootstrapFitBasis {
  /** t at n = 0, in the time unit given (ms here). */
  floor: number;
  floorLow: number;
  floorHigh: number;
  /** Time per unit of size (ms per file, ms per MB). */
  cost: number;
  costLow: number;
  costHigh: number;
}

export function floorCostFit(bySize: ReadonlyMap<number, readonly number[]>, opts: BootstrapFitOptions): FloorCostFit | null {
  const groups = [...bySize.entries()].filter(([, v]) => v.length > 0);
  if (groups.length < 2) return null;
  const { line, basis, interval } = bootstrapFit(groups, opts);
  const floor = interval((l) => l.intercept);
  const cost = interval((l) => l.slope);
  return {
    floor: line.intercept,
    floorLow: floor.low,
    floorHigh: floor.high,
    cost: line.slope,
    costLow: cost.low,
    costHigh: cost.high,
    ...basis,
  };
}

/**
 * Root mean square of log(observed) − log(predicted) over every observation;
 * null when the prediction is not positive at some observed size (a line with
 * a negative floor can be), since its log is undefined there.
 */
export function logResidualRms(bySize: ReadonlyMap<number, readonly number[]>, predict: (size: number) => number): number | null {
  let sum = 0;
  let n = 0;
  for (const [x, ys] of bySize) {
    const p = predict(x);
    for (const y of ys) {
      if (!(p > 0) || !(y > 0)) return null;
      sum += (Math.log(y) - Math.log(p)) ** 2;
      n++;
    }
  }
  return n ? Math.sqrt(sum / n) : null;
}
