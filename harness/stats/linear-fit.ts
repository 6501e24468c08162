// The one adapter around simple-statistics' least-squares line: y = a + b·x.
import { linearRegression } from 'simple-statistics';

export interface Line {
  intercept: number;
  slope: number;
}

/** Least squares over (x, y) points; needs at least two distinct x. */
export function fitLine(points: readonly (readonly [number, number])[]): Line {
  const { b, m } = linearRegression(points.map(([x, y]) => [x, y]));
  return { intercept: b, slope: m };
}
