// Pure: the variance profile of each comparison (plan-check.ts) from the
// formal rows of a measured run, e.g. a published samples.csv or a pilot
// session: per comparison (unit, condition, a, b) the per-round log ratio
// log a - log b of one metric, split by the ANOVA estimator
// (stats/variance-components.ts) into its between-session and its
// between-round variance, and the median of b's metric. A comparison needs
// rounds with both arms in 2 or more sessions; with fewer it has no profile.
import { median } from '../stats/quantile.js';
import { varianceComponents, type CellValue } from '../stats/variance-components.js';
import type { DifferenceProfile } from './plan-check.js';

/** The part of a sample row read here. */
export interface ProfileRow {
  session: number;
  round: number;
  cohort: string;
  path: string;
  state: string;
  phase: string;
  ok: boolean;
}

export interface ProfiledComparison {
  cohort: string;
  state: string;
  a: string;
  b: string;
}

/** One profile per comparison that has one, named `cohort state a - b`. */
export function differenceProfiles(rows: readonly ProfileRow[], comparisons: readonly ProfiledComparison[], metric: string): DifferenceProfile[] {
  const value = new Map<string, number>();
  for (const r of rows) {
    const v = (r as unknown as Record<string, unknown>)[metric];
    if (r.phase !== 'formal' || !r.ok || typeof v !== 'number' || !(v > 0)) continue;
    value.set(`${r.cohort}|${r.state}|${r.path}|${r.session}|${r.round}`, v);
  }
  const out: DifferenceProfile[] = [];
  for (const c of comparisons) {
    const diffs: CellValue[] = [];
    const b: number[] = [];
    for (const [k, va] of value) {
      const [cohort, state, path, session, round] = k.split('|');
      if (cohort !== c.cohort || state !== c.state || path !== c.a) continue;
      const vb = value.get(`${cohort}|${state}|${c.b}|${session}|${round}`);
      if (vb === undefined) continue;
      diffs.push({ session: Number(session), round: Number(round), value: Math.log(va) - Math.log(vb) });
      b.push(vb);
    }
    const v = varianceComponents(diffs);
    if (v.betweenVar === null || v.withinVar === null) continue;
    out.push({ id: `${c.cohort} ${c.state} ${c.a} - ${c.b}`, sessionVar: v.betweenVar, roundVar: v.withinVar, medianBMs: b.length ? median(b) : null });
  }
  return out;
}
