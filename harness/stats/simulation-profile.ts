// The variance profile of one difference a - b, on the log scale, as the
// coverage simulation (coverage-simulation.ts) draws it: per path a session
// offset (sd sessionSd) and a round offset (sd roundSd), the two paths'
// session offsets correlated by sessionCorr and their round offsets in the
// same round by roundCorr.
//
// Estimated from paired rows of a measured run: variance components
// (variance-components.ts, ANOVA estimator) of log a, of log b and of the
// per-round difference log a - log b; the covariance at each level is
// (var a + var b - var d) / 2, its correlation clamped to [-1, 1]. Each path
// keeps its own sd; the simulation uses their root mean square for both.
import { varianceComponents, type CellValue } from './variance-components.js';

export interface VarianceProfile {
  /** Median of b in the unit of the values (ms); a's median is b's times (1 + effect). */
  medianMs: number;
  sessionSd: number;
  roundSd: number;
  sessionCorr: number;
  roundCorr: number;
}

/** One round of a pair: session (from 1), round and the value of each path (one launch each). */
export interface PairedValue {
  session: number;
  round: number;
  a: number;
  b: number;
}

const clamp = (x: number): number => Math.max(-1, Math.min(1, x));

/** The profile of a measured pair; null when a level is not estimable (fewer than 2 sessions, or non-positive values). */
export function profileOfPair(values: readonly PairedValue[], medianMs: number): VarianceProfile | null {
  const ok = values.filter((v) => v.a > 0 && v.b > 0);
  const at = (f: (v: PairedValue) => number): CellValue[] => ok.map((v) => ({ session: v.session, round: v.round, value: f(v) }));
  const ca = varianceComponents(at((v) => Math.log(v.a)));
  const cb = varianceComponents(at((v) => Math.log(v.b)));
  const cd = varianceComponents(at((v) => Math.log(v.a) - Math.log(v.b)));
  if ([ca, cb, cd].some((c) => c.betweenVar === null || c.withinVar === null)) return null;
  const level = (va: number, vb: number, vd: number): { sd: number; corr: number } => {
    const sd = Math.sqrt((va + vb) / 2);
    const cov = (va + vb - vd) / 2;
    const denom = Math.sqrt(va * vb);
    return { sd, corr: denom > 0 ? clamp(cov / denom) : 0 };
  };
  const s = level(ca.betweenVar!, cb.betweenVar!, cd.betweenVar!);
  const r = level(ca.withinVar!, cb.withinVar!, cd.withinVar!);
  return { medianMs, sessionSd: s.sd, roundSd: r.sd, sessionCorr: s.corr, roundCorr: r.corr };
}

/** Variance of the per-round log difference at each level, the quantities that decide coverage and power. */
export function differenceVariances(p: VarianceProfile): { sessionVar: number; roundVar: number } {
  return { sessionVar: 2 * p.sessionSd ** 2 * (1 - p.sessionCorr), roundVar: 2 * p.roundSd ** 2 * (1 - p.roundCorr) };
}
