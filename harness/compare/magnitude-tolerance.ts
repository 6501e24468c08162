// Pure: the magnitude part of a verdict in `pipeline compare`. A cell's size
// held when its P50 ratio candidate / baseline lies within the cell's
// tolerance [1/T, T], T = max(S, minTolerance), where S is the baseline's
// between-session spread of that cell (largest / smallest session median,
// `cell_session_spread` of sessions.csv): a reproduction's median may move as
// far as the baseline's own sessions moved from one another. Without a spread
// (one session, or a report without sessions.csv) or a P50 the size is not
// estimated. A conclusion a − b held in magnitude when both its cells (a and
// b in its cohort, state and metric) held; it did not when either moved out.

/** The least tolerance: sessions that agreed within 5% still allow a move of 5%. */
export const minTolerance = 1.05;

export type CellMagnitude = 'within' | 'outside' | 'not-estimated';
export type Magnitude = 'held' | 'not-held' | 'not-estimated';

/** T for a baseline spread S; null without one. */
export function toleranceOf(sessionSpread: number | null): number | null {
  return sessionSpread === null || !Number.isFinite(sessionSpread) || sessionSpread < 1 ? null : Math.max(sessionSpread, minTolerance);
}

export function cellMagnitude(ratio: number | null, tolerance: number | null): CellMagnitude {
  if (ratio === null || tolerance === null) return 'not-estimated';
  return ratio <= tolerance && ratio >= 1 / tolerance ? 'within' : 'outside';
}

/** Not held when any cell moved outside its tolerance, else not estimated when any cell lacks one, else held. */
export function conclusionMagnitude(cells: readonly CellMagnitude[]): Magnitude {
  if (cells.includes('outside')) return 'not-held';
  if (cells.length === 0 || cells.includes('not-estimated')) return 'not-estimated';
  return 'held';
}
