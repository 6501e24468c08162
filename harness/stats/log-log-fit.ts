// Pure: growth of a time with a size, log(time) = a + b·log(size) by least
// squares over every observation, with a percentile bootstrap interval for the
// exponent b. A resample draws, within each size (a cell of the sweep), as
// many observations as it has, with replacement (seeded), so every size stays
// in the fit.
import { bootstrapFit, type BootstrapFitBasis, type BootstrapFitOptions } from './linear-fit.js';

export interface GrowthFit extends BootstrapFitBasis {
  /** Exponent b: time grows as size^b. */
  slope: number;
  /** exp(a): time at size 1 in the units given. */
  scale: number;
  low: number;
  high: number;
}

export function logLogFit(bySize: ReadonlyMap<number, readonly number[]>, opts: BootstrapFitOptions): GrowthFit | null {
  const groups = [...bySize.entries()]
    .filter(([s, v]) => s > 0 && v.some((t) => t > 0))
    .map(([s, v]) => [Math.log(s), v.filter((t) => t > 0).map(Math.log)] as const);
  if (groups.length < 2) return null;
  const { line, basis, interval } = bootstrapFit(groups, opts);
  const { low, high } = interval((l) => l.slope);
  return { slope: line.slope, scale: Math.exp(line.intercept), low, high, ...basis };
}
