// Variance components of a fully nested random-effects design with any
// number of levels, e.g. hosts → runs → sessions → rounds:
//
//   y = μ + H_h + R_hr + S_hrs + e_hrsi,  each term normal, mean 0, its own variance
//
// (variance-components.ts is the two-level ANOVA special case the single-run
// analysis uses). Estimator: REML (restricted maximum likelihood; Patterson &
// Thompson 1971; Searle, Casella & McCulloch, "Variance Components", 1992,
// ch. 6), the estimator of lme4's lmer (Bates, Mächler, Bolker & Walker,
// "Fitting linear mixed-effects models using lme4", J. Stat. Softw. 67, 2015)
// and of nlme's lme. Unlike the ANOVA (method of moments) estimator it needs
// no expected-mean-square coefficients for unbalanced data, and it never gives
// a negative variance; for balanced data with every estimate positive the two
// agree.
//
// Computation: the covariance of one host's values is σ²_H·11' plus the block
// diagonal of its runs', and so on down; each level is a rank-one update, so
// log det V, 1'V⁻¹1, 1'V⁻¹y and y'V⁻¹y follow bottom-up by Sherman–Morrison
// in O(units). The REML deviance, profiled over the residual variance, is
// minimised over the relative standard deviations θ_j = σ_j/σ_e by
// Nelder–Mead (|θ| so a component can reach its boundary 0, as lmer's bounded
// optimiser does), restarted until it no longer improves.
//
// Intervals (nlme's intervals(): Pinheiro & Bates, "Mixed-Effects Models in S
// and S-PLUS", 2000, §2.4.3): Wald intervals on the log standard deviations,
// from the inverse of the numerical Hessian of the REML deviance in
// (log σ_1, …, log σ_e), back-transformed and squared. A component estimated
// at 0 has no such interval: low 0, high null.
//
// A level with no more units than the level above it (one host; one run on
// each host) is not estimable from these data: its variance is null and the
// level next to it takes it up (the level above, or the residual for the
// lowest grouping level).
import { normalQuantile } from './normal-quantile.js';

/** One value and the ids of its units, top level first (e.g. [host, run, session]). */
export interface NestedValue {
  units: readonly string[];
  value: number;
}

export interface NestedComponent {
  /** The level's name; the last component is the residual ('rounds'). */
  level: string;
  /** Distinct units of the level in the data (values, for the residual). */
  units: number;
  /** REML variance; null when the level is not estimable from these data. */
  variance: number | null;
  /** Wald interval on the log sd, squared; low 0 and high null for a variance at its boundary 0. */
  low: number | null;
  high: number | null;
}

export interface NestedComponents {
  values: number;
  /** The REML (generalised least squares) estimate of μ. */
  mean: number;
  confidence: number;
  /** Top level first; the residual last. */
  components: NestedComponent[];
}

interface Group {
  parent: number;
}

interface Design {
  /** Per included level, top first: each unit's parent index in the level above (-1 at the top). */
  levels: Group[][];
  /** Per lowest included unit: count, sum and sum of squares of its (centred) values. */
  leaves: { n: number; sum: number; sumSq: number }[];
  n: number;
}

interface Moments {
  logDet: number;
  a: number;
  b: number;
  c: number;
}

/** Relative moments (residual variance 1) for relative variances s (one per included level). */
function moments(d: Design, s: readonly number[]): Moments {
  let cur = d.leaves.map((l) => ({ logDet: 0, a: l.n, b: l.sum, c: l.sumSq }));
  for (let j = d.levels.length - 1; j >= 0; j--) {
    const sj = s[j]!;
    const updated = cur.map((m) => {
      const k = 1 + sj * m.a;
      return { logDet: m.logDet + Math.log(k), a: m.a / k, b: m.b / k, c: m.c - (sj * m.b * m.b) / k };
    });
    if (j === 0) {
      cur = updated;
      break;
    }
    const up = d.levels[j - 1]!.map(() => ({ logDet: 0, a: 0, b: 0, c: 0 }));
    d.levels[j]!.forEach((g, i) => {
      const u = up[g.parent]!;
      const m = updated[i]!;
      u.logDet += m.logDet;
      u.a += m.a;
      u.b += m.b;
      u.c += m.c;
    });
    cur = up;
  }
  return cur.reduce((t, m) => ({ logDet: t.logDet + m.logDet, a: t.a + m.a, b: t.b + m.b, c: t.c + m.c }), { logDet: 0, a: 0, b: 0, c: 0 });
}

/** REML deviance profiled over σ²_e, for relative sds θ. */
function profiledDeviance(d: Design, theta: readonly number[]): number {
  const m = moments(
    d,
    theta.map((t) => t * t),
  );
  const q = m.c - (m.b * m.b) / m.a;
  return m.logDet + Math.log(m.a) + (d.n - 1) * Math.log(Math.max(q, 1e-300));
}

/** Full REML deviance in φ = (log σ_1, …, log σ_L, log σ_e). */
function fullDeviance(d: Design, phi: readonly number[]): number {
  const le = phi[phi.length - 1]!;
  const se2 = Math.exp(2 * le);
  const m = moments(
    d,
    phi.slice(0, -1).map((p) => Math.exp(2 * (p - le))),
  );
  const q = m.c - (m.b * m.b) / m.a;
  return (d.n - 1) * Math.log(se2) + m.logDet + Math.log(m.a) + q / se2;
}

function nelderMead(f: (x: number[]) => number, start: number[], step: number): { x: number[]; fx: number } {
  const dim = start.length;
  let simplex = [start, ...start.map((_, i) => start.map((v, j) => (i === j ? v + step : v)))].map((x) => ({ x, fx: f(x) }));
  for (let iter = 0; iter < 20000; iter++) {
    simplex.sort((p, q) => p.fx - q.fx);
    const best = simplex[0]!;
    const worst = simplex[dim]!;
    const size = Math.max(...simplex.map((p) => Math.max(...p.x.map((v, i) => Math.abs(v - best.x[i]!)))));
    if (Math.abs(worst.fx - best.fx) < 1e-13 * (1 + Math.abs(best.fx)) && size < 1e-9) break;
    const centroid = start.map((_, i) => simplex.slice(0, dim).reduce((s, p) => s + p.x[i]!, 0) / dim);
    const along = (t: number): number[] => centroid.map((c, i) => c + t * (worst.x[i]! - c));
    const r = { x: along(-1), fx: 0 };
    r.fx = f(r.x);
    if (r.fx < best.fx) {
      const e = { x: along(-2), fx: 0 };
      e.fx = f(e.x);
      simplex[dim] = e.fx < r.fx ? e : r;
    } else if (r.fx < simplex[dim - 1]!.fx) {
      simplex[dim] = r;
    } else {
      const inside = r.fx < worst.fx;
      const ct = { x: along(inside ? -0.5 : 0.5), fx: 0 };
      ct.fx = f(ct.x);
      if (ct.fx < (inside ? r.fx : worst.fx)) simplex[dim] = ct;
      else
        simplex = simplex
          .map((p, i) => (i === 0 ? p : { x: p.x.map((v, j) => best.x[j]! + 0.5 * (v - best.x[j]!)), fx: 0 }))
          .map((p, i) => (i === 0 ? p : { x: p.x, fx: f(p.x) }));
    }
  }
  simplex.sort((p, q) => p.fx - q.fx);
  return simplex[0]!;
}

function invert(m: number[][]): number[][] | null {
  const n = m.length;
  const a = m.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-14) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    a[col] = a[col]!.map((v) => v / p);
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]!;
      if (f !== 0) a[r] = a[r]!.map((v, j) => v - f * a[col]![j]!);
    }
  }
  return a.map((row) => row.slice(n));
}

function hessian(f: (x: number[]) => number, x: readonly number[], h: number): number[][] {
  const n = x.length;
  const at = (di: number, dj: number, i: number, j: number): number => f(x.map((v, k) => v + (k === i ? di : 0) + (k === j ? dj : 0)));
  const f0 = f([...x]);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    out.push([]);
    for (let j = 0; j < n; j++) {
      out[i]![j] =
        i === j ? (at(h, 0, i, i) - 2 * f0 + at(-h, 0, i, i)) / (h * h) : (at(h, h, i, j) - at(h, -h, i, j) - at(-h, h, i, j) + at(-h, -h, i, j)) / (4 * h * h);
    }
  }
  return out;
}

/**
 * levels: the names of the grouping levels, top first (e.g. ['hosts', 'runs',
 * 'sessions']); every value's units list one id per level. residual: the
 * name of the lowest level (e.g. 'rounds').
 */
export function nestedVarianceComponents(values: readonly NestedValue[], levels: readonly string[], residual: string, confidence: number): NestedComponents {
  const finite = values.filter((v) => Number.isFinite(v.value) && v.units.length === levels.length);
  const n = finite.length;
  const mean0 = n ? finite.reduce((s, v) => s + v.value, 0) / n : Number.NaN;
  // unit ids per level, as paths from the top so that ids need be unique only under their parent
  const pathIds = levels.map((_, j) => finite.map((v) => JSON.stringify(v.units.slice(0, j + 1))));
  const counts = pathIds.map((ids) => new Set(ids).size);
  // a level is included when it has more units than the included level above it (1 for the top)
  const included: number[] = [];
  let above = 1;
  levels.forEach((_, j) => {
    if (counts[j]! > above) {
      included.push(j);
      above = counts[j]!;
    }
  });
  // the lowest grouping level must leave residual degrees of freedom
  if (included.length && counts[included[included.length - 1]!]! >= n) included.pop();
  const components: NestedComponent[] = [
    ...levels.map((level, j) => ({ level, units: counts[j]!, variance: null, low: null, high: null })),
    { level: residual, units: n, variance: null, low: null, high: null },
  ] as NestedComponent[];
  if (n < 2) return { values: n, mean: mean0, confidence, components };

  // design: included levels' units and parents, leaves = lowest included units
  const index = included.map((j) => {
    const m = new Map<string, number>();
    for (const id of pathIds[j]!) if (!m.has(id)) m.set(id, m.size);
    return m;
  });
  const design: Design = { levels: [], leaves: [], n };
  included.forEach((j, li) => {
    const groups: Group[] = [...index[li]!.keys()].map(() => ({ parent: -1 }));
    if (li > 0) {
      finite.forEach((_, vi) => {
        groups[index[li]!.get(pathIds[j]![vi]!)!]!.parent = index[li - 1]!.get(pathIds[included[li - 1]!]![vi]!)!;
      });
    }
    design.levels.push(groups);
  });
  if (included.length) {
    const last = included.length - 1;
    design.leaves = [...index[last]!.keys()].map(() => ({ n: 0, sum: 0, sumSq: 0 }));
    finite.forEach((v, vi) => {
      const leaf = design.leaves[index[last]!.get(pathIds[included[last]!]![vi]!)!]!;
      const y = v.value - mean0;
      leaf.n++;
      leaf.sum += y;
      leaf.sumSq += y * y;
    });
  } else {
    // no grouping level: one pseudo-leaf per value under no level
    design.leaves = finite.map((v) => ({ n: 1, sum: v.value - mean0, sumSq: (v.value - mean0) ** 2 }));
  }

  let theta: number[] = included.map(() => 1);
  if (included.length) {
    let best = { x: theta, fx: profiledDeviance(design, theta) };
    for (let restart = 0; restart < 8; restart++) {
      const r = nelderMead((x) => profiledDeviance(design, x), best.x, restart === 0 ? 0.5 : 0.1);
      const improved = r.fx < best.fx - 1e-12;
      if (r.fx <= best.fx) best = r;
      if (!improved && restart > 0) break;
    }
    theta = best.x.map(Math.abs);
  }
  const m = moments(
    design,
    theta.map((t) => t * t),
  );
  const se2 = (m.c - (m.b * m.b) / m.a) / (n - 1);
  const mean = mean0 + m.b / m.a;
  const variances = [...theta.map((t) => t * t * se2), se2];

  // Wald intervals on the log sds of the components away from 0
  const z = normalQuantile((1 + confidence) / 2);
  const positive = variances.map((v) => v > 1e-10 * se2 + 1e-300);
  const free = variances.map((_, i) => i).filter((i) => positive[i]);
  const phiAll = variances.map((v) => 0.5 * Math.log(Math.max(v, 1e-300)));
  const dev = (x: number[]): number => {
    const phi = [...phiAll];
    free.forEach((i, k) => (phi[i] = x[k]!));
    // a component at its boundary stays at (effectively) 0
    return fullDeviance(
      design,
      phi.map((p, i) => (positive[i] ? p : -350)),
    );
  };
  const cov = invert(
    hessian(
      dev,
      free.map((i) => phiAll[i]!),
      1e-4,
    ),
  );
  const ses = free.map((_, k) => (cov && cov[k]![k]! > 0 ? Math.sqrt(2 * cov[k]![k]!) : null));
  const interval = (i: number): { low: number | null; high: number | null } => {
    if (!positive[i]) return { low: 0, high: null };
    const se = ses[free.indexOf(i)];
    if (se == null) return { low: null, high: null };
    return { low: Math.exp(2 * (phiAll[i]! - z * se)), high: Math.exp(2 * (phiAll[i]! + z * se)) };
  };
  included.forEach((j, k) => {
    components[j] = { ...components[j]!, variance: variances[k]!, ...interval(k) };
  });
  components[levels.length] = { ...components[levels.length]!, variance: se2, ...interval(variances.length - 1) };
  return { values: n, mean, confidence, components };
}
