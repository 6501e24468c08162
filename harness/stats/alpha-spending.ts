// Two-sided group-sequential boundaries by alpha spending (Lan & DeMets,
// "Discrete sequential boundaries for clinical trials", Biometrika 70, 1983):
// at information fractions t_1 < ... < t_m (looks), the boundary c_j on |Z_j|
// is chosen so that the chance, with no difference, of first crossing at
// look j is alpha(t_j) - alpha(t_{j-1}), where alpha(t) is the spending
// function. The joint law is that of Brownian motion: Z_j = S_j / sqrt(t_j),
// S with independent normal increments of variance t_j - t_{j-1}. The
// crossing chances come from recursive numerical integration of the density
// of S over the continuation region (Armitage, McPherson & Rowe 1969;
// Jennison & Turnbull, "Group Sequential Methods with Applications to
// Clinical Trials", 2000, ch. 19), Simpson's rule on a fixed grid.
//
// Spending functions (two-sided, alpha in total):
//   obrien-fleming  alpha(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt(t))  (Lan & DeMets 1983)
//   pocock          alpha(t) = alpha ln(1 + (e - 1) t)              (Lan & DeMets 1983)
//   power           alpha(t) = alpha t^rho                          (Kim & DeMets 1987)
import { normalCdf, normalDensity, normalQuantile, normalUpperTail } from './normal-distribution.js';

export type SpendingFunction = { kind: 'obrien-fleming' } | { kind: 'pocock' } | { kind: 'power'; rho: number };

/** Cumulative alpha spent by information fraction t in [0, 1]. */
export function alphaSpent(spending: SpendingFunction, alpha: number, t: number): number {
  if (t <= 0) return 0;
  const u = Math.min(1, t);
  switch (spending.kind) {
    case 'obrien-fleming':
      return 2 * normalUpperTail(normalQuantile(1 - alpha / 2) / Math.sqrt(u));
    case 'pocock':
      return alpha * Math.log(1 + (Math.E - 1) * u);
    case 'power':
      return alpha * u ** spending.rho;
  }
}

export interface LookBoundary {
  /** Information fraction of this look. */
  fraction: number;
  /** Boundary on |Z|; Infinity when the look spends nothing. */
  z: number;
  /** Two-sided nominal level of the look, 2 (1 - Phi(z)). */
  nominalAlpha: number;
  /** Cumulative alpha spent up to and including this look. */
  cumulativeAlpha: number;
}

/** Grid points per look (odd, for Simpson's rule). */
const GRID = 201;
/** |S| beyond this many sd of S_j carries no mass worth integrating. */
const SPAN_SD = 9;

interface Density {
  points: number[];
  weights: number[]; // Simpson weight times density
}

function simpsonGrid(lo: number, hi: number): { points: number[]; weights: number[] } {
  const h = (hi - lo) / (GRID - 1);
  const points: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < GRID; i++) {
    points.push(lo + i * h);
    weights.push(((i === 0 || i === GRID - 1 ? 1 : i % 2 === 1 ? 4 : 2) * h) / 3);
  }
  return { points, weights };
}

/** Two-sided boundaries for looks at the given increasing fractions in (0, 1]. */
export function spendingBoundaries(fractions: readonly number[], alpha: number, spending: SpendingFunction): LookBoundary[] {
  const out: LookBoundary[] = [];
  let density: Density | null = null;
  let previousT = 0;
  let spentBefore = 0;
  for (const t of fractions) {
    if (!(t > previousT && t <= 1 + 1e-12)) throw new Error(`look fractions must increase within (0, 1], got ${fractions.join(', ')}`);
    const cumulative = alphaSpent(spending, alpha, t);
    const target = cumulative - spentBefore;
    const sdS = Math.sqrt(t);
    const step = Math.sqrt(t - previousT);
    const exitAt = (c: number): number => {
      const edge = c * sdS;
      if (!density) return 2 * normalUpperTail(c);
      let p = 0;
      for (let i = 0; i < density.points.length; i++) {
        const s = density.points[i]!;
        p += density.weights[i]! * (normalCdf((-edge - s) / step) + normalUpperTail((edge - s) / step));
      }
      return p;
    };
    let z = Number.POSITIVE_INFINITY;
    if (target > 1e-15) {
      let lo = 0;
      let hi = SPAN_SD * 2;
      if (exitAt(hi) > target) z = hi;
      else {
        for (let i = 0; i < 100 && hi - lo > 1e-10; i++) {
          const mid = (lo + hi) / 2;
          if (exitAt(mid) > target) lo = mid;
          else hi = mid;
        }
        z = (lo + hi) / 2;
      }
    }
    const spent = Number.isFinite(z) ? exitAt(z) : 0;
    spentBefore += spent;
    out.push({ fraction: t, z, nominalAlpha: Number.isFinite(z) ? 2 * normalUpperTail(z) : 0, cumulativeAlpha: spentBefore });
    // Density of S_t on the continuation region (-z sqrt t, z sqrt t).
    const edge = Math.min(Number.isFinite(z) ? z : SPAN_SD, SPAN_SD) * sdS;
    const grid = simpsonGrid(-edge, edge);
    const weights = grid.points.map((y, j) => {
      let f = 0;
      if (!density) f = normalDensity(y / sdS) / sdS;
      else for (let i = 0; i < density.points.length; i++) f += (density.weights[i]! * normalDensity((y - density.points[i]!) / step)) / step;
      return f * grid.weights[j]!;
    });
    density = { points: grid.points, weights };
    previousT = t;
  }
  return out;
}
