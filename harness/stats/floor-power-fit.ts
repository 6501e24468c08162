// Pure: growth of a time with a size as a floor plus a power, t = f + c·n^k,
// with a percentile bootstrap interval on the exponent k, and how many sizes
// lie above the floor, so a shape is named only where the sizes can tell
// shapes apart.
//
// Fit: relative least squares, Σ ((y − f − c·n^k) / y)², which weighs a 10%
// miss alike at 100 files and at 100,000 (to first order the log residual
// the growth table reports). For a given k the weighted line in x = n^k has a
// closed form; k is the best of a grid from 0.05 to 3 in steps of 0.05,
// refined in steps of 0.01 around it (the error is unimodal in k here), with
// f and c free (the floor may come out negative when the sizes cannot place
// it). Resamples draw, within each size, as many observations as it has, with
// replacement, seeded, and refit k on the same grid.
//
// Above the floor: a size whose every observation exceeds the upper end of
// the floor's interval. With fewer than three such sizes, a floor plus a line
// and a floor plus a square pass through the same points about equally well:
// `identified` is false and the shape must not be named (issue 33: only the
// 100k-file size rose above the 0.49 s floor, and floor + n and floor + n²
// fitted with the same log residual).
import { quantile } from './quantile.js';
import { randomInt, seededRandom } from './seeded-random.js';

export interface FloorPowerFit {
  floor: number;
  floorLow: number;
  floorHigh: number;
  cost: number;
  exponent: number;
  exponentLow: number;
  exponentHigh: number;
  /** Root of the mean squared relative residual at the fit. */
  relativeRms: number;
  sizes: number;
  /** Sizes whose every observation lies above floorHigh. */
  sizesAboveFloor: number;
  /** At least `minSizesAboveFloor` sizes lie above the floor. */
  identified: boolean;
  observations: number;
  resamples: number;
  confidence: number;
}

/** Fewer sizes above the floor than this cannot tell a linear from a quadratic cost. */
export const minSizesAboveFloor = 3;

/** The coarse grid of exponents, 0.05 to 3 in steps of 0.05; the best is refined in steps of 0.01 around it. */
const COARSE: readonly number[] = Array.from({ length: 60 }, (_, i) => Math.round((0.05 + i * 0.05) * 100) / 100);

interface Fit {
  floor: number;
  cost: number;
  exponent: number;
  sse: number;
}

/** Weighted least squares of y on x = n^k with weights 1/y², for one k. */
function fitAt(points: readonly (readonly [number, number])[], k: number): Fit | null {
  let sw = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (const [n, y] of points) {
    const w = 1 / (y * y);
    const x = n ** k;
    sw += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  const det = sw * sxx - sx * sx;
  if (!(Math.abs(det) > 1e-300)) return null;
  const cost = (sw * sxy - sx * sy) / det;
  const floor = (sy - cost * sx) / sw;
  let sse = 0;
  for (const [n, y] of points) sse += ((y - floor - cost * n ** k) / y) ** 2;
  return { floor, cost, exponent: k, sse };
}

function bestFit(points: readonly (readonly [number, number])[]): Fit | null {
  let best: Fit | null = null;
  const consider = (k: number): void => {
    const f = fitAt(points, k);
    if (f && (best === null || f.sse < best.sse)) best = f;
  };
  for (const k of COARSE) consider(k);
  if (best === null) return null;
  const centre = (best as Fit).exponent;
  for (let d = -4; d <= 4; d++) {
    const k = Math.round((centre + d * 0.01) * 100) / 100;
    if (d !== 0 && k >= 0.01 && k <= 3) consider(k);
  }
  return best;
}

export function floorPowerFit(
  bySize: ReadonlyMap<number, readonly number[]>,
  opts: { resamples: number; confidence: number; seed: string | number },
): FloorPowerFit | null {
  const groups = [...bySize.entries()].filter(([, v]) => v.length > 0).sort((a, b) => a[0] - b[0]);
  if (groups.length < 3 || groups.some(([n, ys]) => !(n > 0) || ys.some((y) => !(y > 0)))) return null;
  const points = groups.flatMap(([n, ys]) => ys.map((y) => [n, y] as const));
  const fit = bestFit(points);
  if (!fit) return null;
  const random = seededRandom(opts.seed);
  const exponents: number[] = [];
  const floors: number[] = [];
  for (let r = 0; r < opts.resamples; r++) {
    const sample: (readonly [number, number])[] = [];
    for (const [n, ys] of groups) for (let i = 0; i < ys.length; i++) sample.push([n, ys[randomInt(random, ys.length)]!]);
    const f = bestFit(sample);
    if (!f) continue;
    exponents.push(f.exponent);
    floors.push(f.floor);
  }
  const lo = (1 - opts.confidence) / 2;
  const hi = (1 + opts.confidence) / 2;
  const floorHigh = quantile(floors, hi);
  const sizesAboveFloor = groups.filter(([, ys]) => Math.min(...ys) > floorHigh).length;
  return {
    floor: fit.floor,
    floorLow: quantile(floors, lo),
    floorHigh,
    cost: fit.cost,
    exponent: fit.exponent,
    exponentLow: quantile(exponents, lo),
    exponentHigh: quantile(exponents, hi),
    relativeRms: Math.sqrt(fit.sse / points.length),
    sizes: groups.length,
    sizesAboveFloor,
    identified: sizesAboveFloor >= minSizesAboveFloor,
    observations: points.length,
    resamples: exponents.length,
    confidence: opts.confidence,
  };
}

/**
 * The growth shape the fit supports, as a named finding: 'not-identified'
 * (fewer than three sizes above the floor), 'linear' (the interval on k holds 1
 * and not 2), 'quadratic' (holds 2, not 1), 'between' (lies wholly between 1
 * and 2), 'sublinear', 'superquadratic', or 'unresolved' (holds both 1 and 2).
 */
export type GrowthShape = 'not-identified' | 'linear' | 'quadratic' | 'between' | 'sublinear' | 'superquadratic' | 'unresolved';

export function growthShape(f: FloorPowerFit): GrowthShape {
  if (!f.identified) return 'not-identified';
  const holds = (k: number): boolean => f.exponentLow <= k && k <= f.exponentHigh;
  if (holds(1) && holds(2)) return 'unresolved';
  if (holds(1)) return 'linear';
  if (holds(2)) return 'quadratic';
  if (f.exponentHigh < 1) return 'sublinear';
  if (f.exponentLow > 2) return 'superquadratic';
  return 'between';
}
