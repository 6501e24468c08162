// Pure: the four-outcome verdict (comparison-verdict.ts) of a difference of a
// fixed design, as differences.csv words it: lower or higher when the one
// direction rule (direction-rule.ts) establishes the direction, by the sign
// of the observed difference: detected (both the two-level bootstrap and,
// with K >= 3 sessions, the between-session t interval exclude 0), or size
// uncertain (every session alone excludes 0 on the same side; differences.csv
// says so in size_uncertain); equivalent when both intervals lie inside
// +-delta of b's median (delta from analysis.practical); undecided otherwise.
// The intervals of a fixed design hold at its one look; a design that looks
// more than once needs the sequential interval (sequential-decision.ts).
import { comparisonVerdict, marginHalfWidth, type ComparisonVerdict } from './comparison-verdict.js';
import { type PracticalMargin } from '../config/practical-margin.js';

export interface FixedDifference {
  /** a - b (unit ms), or a / b for a ratio. */
  observed: number | null;
  low: number | null;
  high: number | null;
  /** Between-session interval; null with fewer than 3 sessions. */
  sessionLow: number | null;
  sessionHigh: number | null;
  detected: boolean;
  /** Not detected, but the direction is established by replication (direction-rule.ts). */
  sizeUncertain?: boolean;
}

/** The verdict of a difference in ms whose b has median referenceMs, or of a ratio (kind 'ratio', null value 1). */
export function fixedDifferenceVerdict(
  d: FixedDifference,
  kind: 'difference' | 'ratio',
  referenceMs: number | null,
  margin: PracticalMargin,
): ComparisonVerdict {
  const half = marginHalfWidth(margin, kind === 'ratio' ? null : referenceMs);
  const relative = (v: number | null): number | null => {
    if (v === null) return null;
    if (kind === 'ratio') return v - 1;
    return referenceMs !== null && referenceMs > 0 ? v / referenceMs : null;
  };
  const ends = [relative(d.low), relative(d.high)];
  const session = d.sessionLow !== null && d.sessionHigh !== null ? [relative(d.sessionLow), relative(d.sessionHigh)] : null;
  if (d.observed === null || ends.some((e) => e === null) || session?.some((e) => e === null)) return comparisonVerdict(null, half);
  // The narrower claim of the two intervals: the union of both, so "equivalent" needs both inside the band.
  const low = Math.min(ends[0]!, session ? session[0]! : Infinity);
  const high = Math.max(ends[1]!, session ? session[1]! : -Infinity);
  const v = comparisonVerdict({ low, high }, half);
  const up = kind === 'ratio' ? d.observed > 1 : d.observed > 0;
  if (d.detected || d.sizeUncertain) return { ...v, verdict: up ? 'higher' : 'lower' };
  return v.verdict === 'equivalent' ? v : { ...v, verdict: 'undecided' };
}
