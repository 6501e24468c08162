// Pure prose: a rate over several comparisons as the plan check and a
// report's operating characteristics say it: "17% (5%–92%)", the median over
// the comparisons, then their range; one figure when the ends print alike.
import { median } from '../stats/quantile.js';

export const pct = (x: number): string => `${Math.round(100 * x)}%`;

/** "13%–20%", or "13%" when both ends print alike. */
export function rangeText(xs: readonly number[], f: (x: number) => string = pct): string {
  const lo = f(Math.min(...xs));
  const hi = f(Math.max(...xs));
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** "17% (5%–92%)": the median, then the range; the range alone for two values or fewer. */
export function spreadText(xs: readonly number[]): string {
  const range = rangeText(xs);
  return xs.length > 2 && range.includes('–') ? `${pct(median([...xs]))} (${range})` : range;
}
