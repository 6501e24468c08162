// Pure prose: "equivalent" as a reader can check it (issue 42 item 3). Every
// "equivalent within" says its band in ms and in %, and the interval it was
// decided on, as a / b − 1 in %. A band wider than the cap (10%) was set by
// the min_ms floor over a short median: it is given in ms first, with that
// cause, never as a bare percentage a reader would take for the 5% used
// everywhere else. Kept apart from the rules (judge.ts): rewording changes no
// sample key.
import type { ComparisonVerdict } from '../analysis/comparison-verdict.js';

/** Above this relative half width a band is said in ms: it comes from the ms floor, not the relative margin. */
export const EQUIVALENCE_CAP = 0.1;

const pct = (x: number): string => `${(100 * x).toFixed(Math.abs(x) < 0.1 ? 1 : 0).replace(/\.0$/, '')}%`;
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${(100 * Math.abs(x)).toFixed(1)}%`;

/**
 * "equivalent within ±5% = ±1.9 ms, decided on [−2.1%, +3.0%]"; above the cap
 * "equivalent within ±10.0 ms = 26% of b's 38.1 ms (the min_ms floor), decided on [−20.7%, +10.3%]".
 * `referenceMs`: b's median (null for a ratio without one: the band in % alone); `decidedOn`: the
 * interval of a / b − 1 the verdict was taken on, when known.
 */
export function equivalenceWords(
  v: Pick<ComparisonVerdict, 'marginRelative'>,
  referenceMs: number | null,
  decidedOn: { low: number; high: number } | null,
): string {
  const on = decidedOn ? `, decided on [${signed(decidedOn.low)}, ${signed(decidedOn.high)}]` : '';
  if (referenceMs === null || !(referenceMs > 0)) return `equivalent within ±${pct(v.marginRelative)}${on}`;
  const ms = (v.marginRelative * referenceMs).toFixed(1);
  if (v.marginRelative > EQUIVALENCE_CAP)
    return `equivalent within ±${ms} ms = ${pct(v.marginRelative)} of b's ${referenceMs.toFixed(1)} ms (the min_ms floor)${on}`;
  return `equivalent within ±${pct(v.marginRelative)} = ±${ms} ms${on}`;
}
