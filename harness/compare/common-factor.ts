// The factor every cell of a candidate run shares against its baseline (host
// speed, the run's drift; issue 28): the median over the time cells of the
// P50 ratio candidate / baseline, with the sign-test 95% interval of that
// median (stats/median-interval.ts). Estimated once and said once ("every
// cell ×1.12"); the magnitude verdicts then judge each effect after it. Byte
// cells do not move with the host's speed and are left out. With fewer than
// MIN_FACTOR_CELLS time cells one cell's move would be most of the factor:
// none is estimated (factor 1). Pure.
import { medianInterval } from '../stats/median-interval.js';

/** A factor needs this many time cells (with two, one cell's move is half of it). */
export const MIN_FACTOR_CELLS = 3;

export interface CommonFactor {
  /** candidate / baseline, shared by the time cells: 1 when not estimated. */
  ratio: number;
  /** Its 95% interval; null when not estimated. */
  low: number | null;
  high: number | null;
  /** Time cells it is estimated from (0: not estimated). */
  cells: number;
  /** The interval reaches 95% (false with 5 cells or fewer: it is then their range). */
  exact: boolean;
}

export const NO_FACTOR: CommonFactor = { ratio: 1, low: null, high: null, cells: 0, exact: false };

/** Whether a cell is a time (the cells a host's speed moves): every unit but bytes. */
export const isTimeUnit = (unit: string): boolean => unit !== 'bytes';

export function commonFactor(ratios: readonly { ratio: number | null; unit: string }[]): CommonFactor {
  const logs = ratios.filter((r) => r.ratio !== null && r.ratio > 0 && Number.isFinite(r.ratio) && isTimeUnit(r.unit)).map((r) => Math.log(r.ratio!));
  if (logs.length < MIN_FACTOR_CELLS) return NO_FACTOR;
  const m = medianInterval(logs)!;
  return { ratio: Math.exp(m.median), low: Math.exp(m.low), high: Math.exp(m.high), cells: logs.length, exact: m.exact };
}
