// The one adapter around simple-statistics' least-squares line: y = a + b·x,
// and its bootstrap over groups of observations at each x.
import { linearRegression } from 'simple-statistics';
import { randomInt, seededRandom } from './seeded-random.js';

export interface Line {
  intercept: number;
  slope: number;
}

/** Least squares over (x, y) points; needs at least two distinct x. */
export function fitLine(points: readonly (readonly [number, number])[]): Line {
  const { b, m } = linearRegression(points.map(([x, y]) => [x, y]));
  return { intercept: b, slope: m };
}

/** The line over every observation of `groups` ([x, its ys]), and `resamples` lines of seeded resamples that draw, within each x, as many ys as it has, with replacement, so every x stays in the fit. */
export function bootstrapLines(
  groups: readonly (readonly [number, readonly number[]])[],
  opts: { resamples: number; seed: string | number },
): { line: Line; observations: number; draws: Line[] } {
  const points = groups.flatMap(([x, ys]) => ys.map((y) => [x, y] as const));
  const random = seededRandom(opts.seed);
  const draws: Line[] = [];
  for (let r = 0; r < opts.resamples; r++) {
    const sample: (readonly [number, number])[] = [];
    for (const [x, ys] of groups) for (let i = 0; i < ys.length; i++) sample.push([x, ys[randomInt(random, ys.length)]!]);
    draws.push(fitLine(sample));
  }
  return { line: fitLine(points), observations: points.length, draws };
}
