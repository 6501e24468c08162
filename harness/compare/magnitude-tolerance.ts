// Pure: the magnitude part of a verdict in `pipeline compare`, judged on the
// effect after the factor the runs share (common-factor.ts), not on the raw
// cells (issue 28).
//
// A cell's tolerance is T = max(S, R): S the baseline's between-session spread
// of the cell (largest / smallest session median, `cell_session_spread` of
// sessions.csv), used only from MIN_SPREAD_SESSIONS or more sessions; R the
// between-run tolerance of a cell's ratio, exp(1.96 · √2 · CELL_LOG_SD), from
// the host-kind figure (stats/host-kind-drift.ts): how far a rerun's cell
// may land from the baseline's once the shared factor is out. A cell is within
// when its ratio candidate / baseline, divided by the common factor F, lies in
// [1/T, T]; a cell outside is a path-specific move, found whatever F is.
// A conclusion a − b holds in magnitude when its effect does:
//   median difference: the candidate's difference scaled by the common factor,
//     d_C / F, lies within ± √((P50_a · ln T_a)² + (P50_b · ln T_b)²) of the
//     baseline's d_B (the cells' tolerances carried to the difference);
//   median ratio: (a/b)_C / (a/b)_B lies within exp(± √(ln² T_a + ln² T_b))
//     (the factor cancels in a ratio).
// Without the values or the baseline P50s the magnitude is not estimated.
//
// Where a report gives the conclusion a rerun interval (`rerun_low`,
// `rerun_high` of differences.csv: where a rerun's estimate should fall, the
// between-run component included; analysis/rerun-results.ts), that interval
// is the rule instead of the tolerance (issue 28): the baseline's, when it has
// one: the candidate's effect after the common factor (d_C / F; a ratio as it
// is) lies inside it; else the candidate's: the baseline's effect carried by
// the factor (d_B · F; a ratio as it is) lies inside the candidate's. Only
// with neither is the tolerance above used.
import { CELL_LOG_SD } from '../stats/host-kind-drift.js';

/** The session spread counts toward a tolerance only from this many sessions: two session medians say little of the spread (×1.31 "within", ×0.84 "not held" were seen with two). */
export const MIN_SPREAD_SESSIONS = 3;

/** The between-run tolerance R of a cell's ratio after the common factor: exp(1.96 · √2 · CELL_LOG_SD). */
export const betweenRunTolerance = Math.exp(1.959964 * Math.SQRT2 * CELL_LOG_SD);

export type CellMagnitude = 'within' | 'outside' | 'not-estimated';
export type Magnitude = 'held' | 'not-held' | 'not-estimated';

/** Where a cell's tolerance comes from. */
export type ToleranceSource = 'sessions' | 'between-run' | 'between-run, fewer than 3 sessions';

export interface Tolerance {
  factor: number;
  source: ToleranceSource;
}

/** T for a baseline spread S over `sessions` sessions (null: unknown). */
export function toleranceOf(sessionSpread: number | null, sessions: number | null = null): Tolerance {
  const usable = sessionSpread !== null && Number.isFinite(sessionSpread) && sessionSpread >= 1;
  if (usable && sessions !== null && sessions < MIN_SPREAD_SESSIONS) return { factor: betweenRunTolerance, source: 'between-run, fewer than 3 sessions' };
  if (usable && sessionSpread > betweenRunTolerance) return { factor: sessionSpread, source: 'sessions' };
  return { factor: betweenRunTolerance, source: 'between-run' };
}

/** `ratio` is candidate / baseline already divided by the common factor. */
export function cellMagnitude(ratio: number | null, tolerance: number): CellMagnitude {
  if (ratio === null) return 'not-estimated';
  return ratio <= tolerance && ratio >= 1 / tolerance ? 'within' : 'outside';
}

export interface EffectInput {
  kind: 'median_difference' | 'median_ratio';
  baselineValue: number | null;
  candidateValue: number | null;
  /** The baseline P50s of the conclusion's two cells and their tolerances. */
  a: { p50: number | null; tolerance: number };
  b: { p50: number | null; tolerance: number };
  /** The common factor candidate / baseline. */
  factor: number;
  /** The rerun intervals of the two reports' rows, when they have them. */
  baselineRerun?: { low: number; high: number } | null;
  candidateRerun?: { low: number; high: number } | null;
}

/** Which rule judged the magnitude: a report's rerun interval, or the tolerance carried from the cells. */
export type MagnitudeRule = 'baseline rerun interval' | 'candidate rerun interval' | 'tolerance' | 'cross-class ratio';

/** Across host classes a conclusion's size is judged on its ratio a / b: it transferred when the candidate's P50 ratio lies within ×0.80–×1.25 of the baseline's (docs/VERDICTS.md, the band a rerun of the same setup gives). */
export const TRANSFER_BAND = 1.25;

export interface EffectMagnitude {
  magnitude: Magnitude;
  /** The candidate's effect after the factor: d_C / F, or (a/b)_C for a ratio; with the candidate's rerun interval, the baseline's effect carried by it (d_B · F). */
  adjusted: number | null;
  /** The half-width allowed around the baseline: in the unit for a difference, a factor for a ratio (tolerance rule only). */
  allowed: number | null;
  rule: MagnitudeRule;
  /** The rerun interval judged against (rerun rules only). */
  interval: { low: number; high: number } | null;
}

export function effectMagnitude(e: EffectInput): EffectMagnitude {
  const none = { magnitude: 'not-estimated' as const, adjusted: null, allowed: null, rule: 'tolerance' as const, interval: null };
  if (e.baselineValue !== null && e.candidateValue !== null && (e.baselineRerun || e.candidateRerun)) {
    const ratio = e.kind === 'median_ratio';
    const interval = (e.baselineRerun ?? e.candidateRerun)!;
    const adjusted = e.baselineRerun ? (ratio ? e.candidateValue : e.candidateValue / e.factor) : ratio ? e.baselineValue : e.baselineValue * e.factor;
    return {
      magnitude: adjusted >= interval.low && adjusted <= interval.high ? 'held' : 'not-held',
      adjusted,
      allowed: null,
      rule: e.baselineRerun ? 'baseline rerun interval' : 'candidate rerun interval',
      interval,
    };
  }
  if (e.baselineValue === null || e.candidateValue === null || e.a.p50 === null || e.b.p50 === null) return none;
  const la = Math.log(e.a.tolerance);
  const lb = Math.log(e.b.tolerance);
  if (e.kind === 'median_ratio') {
    if (!(e.baselineValue > 0 && e.candidateValue > 0)) return none;
    const allowed = Math.exp(Math.sqrt(la * la + lb * lb));
    const q = e.candidateValue / e.baselineValue;
    return { magnitude: q <= allowed && q >= 1 / allowed ? 'held' : 'not-held', adjusted: e.candidateValue, allowed, rule: 'tolerance', interval: null };
  }
  const adjusted = e.candidateValue / e.factor;
  const allowed = Math.sqrt((Math.abs(e.a.p50) * la) ** 2 + (Math.abs(e.b.p50) * lb) ** 2);
  return { magnitude: Math.abs(adjusted - e.baselineValue) <= allowed ? 'held' : 'not-held', adjusted, allowed, rule: 'tolerance', interval: null };
}
