// The one adapter around simple-statistics' least-squares line: y = a + b·x,
// and its bootstrap over groups of observations at each x.
import { linearRegression } from 'simple-statistics';
import { quantile } from './quantile.js';
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

/** How a bootstrap line fit was asked for: resamples, the interval's confidence (0..1), and the seed. */
export interface BootstrapFitOptions {
  resamples: number;
  confidence: number;
  seed: string | number;
}

/** What a bootstrap line fit stands on: distinct sizes (x), observations, resamples and confidence. */
export interface BootstrapFitBasis {
  sizes: number;
  observations: number;
  resamples: number;
  confidence: number;
}

/** bootstrapLines with what the fit stands on, and the percentile interval at opts.confidence of any coefficient of the resampled lines. */
export function bootstrapFit(
  groups: readonly (readonly [number, readonly number[]])[],
  opts: BootstrapFitOptions,
): { line: Line; basis: BootstrapFitBasis; interval: (coefficient: (l: Line) => number) => { low: number; high: number } } {
  const { line, observations, draws } = bootstrapLines(groups, opts);
  return {
    line,
    basis: { sizes: groups.length, observations, resamples: opts.resamples, confidence: opts.confidence },
    interval: (coefficient) => {
      const values = draws.map(coefficient);
      return { low: quantile(values, (1 - opts.confidence) / 2), high: quantile(values, (1 + opts.confidence) / 2) };
    },
  };
}
