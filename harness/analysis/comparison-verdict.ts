// Pure: the verdict of one comparison a - b, one of four outcomes, from an
// interval of the relative difference a / b - 1 and the practical margin:
//   lower       the interval lies below 0 (a is lower than b);
//   higher      the interval lies above 0;
//   equivalent  the interval lies inside (-delta, +delta): a and b are the
//               same within the practical margin;
//   undecided   none of these (with the budget spent, this is the answer).
// An interval that excludes 0 and lies inside the margin is a direction
// (lower or higher) with withinMargin true: the sign is known, and the size
// is too small to matter.
//
// delta is analysis.practical (schemas/analysis.schema.json), relative and
// absolute: an effect counts as practically nothing when it is below
// min_ratio_change of b's median or below min_ms, as the effect table's floor
// (harness/sandbox/practical-floor.ts) reads the same section, so the
// relative half width of the band is max(min_ratio_change, min_ms / median b).
// The interval must hold at the look the decision is taken: under optional
// stopping that is the sequential interval (stats/sequential-session-interval.ts).

import type { PracticalMargin } from '../config/practical-margin.js';

export type Verdict = 'lower' | 'higher' | 'equivalent' | 'undecided';
export const verdicts: readonly Verdict[] = ['lower', 'higher', 'equivalent', 'undecided'];

/** The band's relative half width for a comparison whose b has this median (ms). */
export function marginHalfWidth(margin: PracticalMargin, referenceMs: number | null): number {
  const absolute = referenceMs !== null && referenceMs > 0 && margin.absoluteMs > 0 ? margin.absoluteMs / referenceMs : 0;
  return Math.max(margin.relative, absolute);
}

export interface RelativeInterval {
  /** Lower end of a / b - 1. */
  low: number;
  /** Upper end of a / b - 1. */
  high: number;
}

export interface ComparisonVerdict {
  verdict: Verdict;
  /** True when the whole interval lies inside the margin (also for a direction). */
  withinMargin: boolean;
  /** The relative half width of the margin used. */
  marginRelative: number;
}

/** The verdict of an interval of a / b - 1 against a band of +-halfWidth; a missing interval is undecided. */
export function comparisonVerdict(interval: RelativeInterval | null, halfWidth: number): ComparisonVerdict {
  if (!interval || !Number.isFinite(interval.low) || !Number.isFinite(interval.high)) {
    return { verdict: 'undecided', withinMargin: false, marginRelative: halfWidth };
  }
  const withinMargin = interval.low > -halfWidth && interval.high < halfWidth;
  const verdict: Verdict = interval.high < 0 ? 'lower' : interval.low > 0 ? 'higher' : withinMargin ? 'equivalent' : 'undecided';
  return { verdict, withinMargin, marginRelative: halfWidth };
}

/** An interval of the mean log ratio log a - log b as an interval of a / b - 1. */
export function relativeFromLog(interval: { low: number; high: number }): RelativeInterval {
  return { low: Math.expm1(interval.low), high: Math.expm1(interval.high) };
}

/** An interval of a - b in ms as one of a / b - 1, b's median the reference; null without a positive reference. */
export function relativeFromMs(interval: { lowMs: number | null; highMs: number | null }, referenceMs: number | null): RelativeInterval | null {
  if (interval.lowMs === null || interval.highMs === null || referenceMs === null || !(referenceMs > 0)) return null;
  return { low: interval.lowMs / referenceMs, high: interval.highMs / referenceMs };
}
