// Pure: how far a bootstrap interval's endpoints move with the seed, and the
// digits an endpoint can be printed with so that the printed figure does not
// (issue 33 for commit-diff, issue 42 item 5 for every experiment). The
// interval is drawn again under seedCheckSeeds; the spread is the largest move
// of either endpoint; an endpoint is printed with the most decimals whose
// half-unit of the last digit covers the spread, never fewer than `min`, and
// a spread beyond `min`'s half-unit is said beside the interval instead.

/** Other seeds an interval is drawn again with, appended to its own seed. */
export const seedCheckSeeds = ['seed-check-1', 'seed-check-2'] as const;

/** An interval's endpoints; null where it has none. */
export interface Endpoints {
  low: number | null;
  high: number | null;
}

/** Pure: the largest move of either endpoint between the interval and its redraws under other seeds; null without an interval. */
export function endpointSpread(c: Endpoints, redraws: readonly Endpoints[]): number | null {
  if (c.low === null || c.high === null) return null;
  let spread = 0;
  for (const r of redraws) {
    if (r.low === null || r.high === null) continue;
    spread = Math.max(spread, Math.abs(r.low - c.low), Math.abs(r.high - c.high));
  }
  return spread;
}

/**
 * Pure: the most decimals (`min` to `max`) whose half-unit of the last digit
 * covers `spread`, so a printed endpoint does not change with the seed. Never
 * below `min`: a ratio interval rounded to whole numbers could print 1.10 as 1,
 * on the null value; a spread beyond `min`'s half-unit is said beside it instead.
 */
export function intervalDigits(spread: number | null, max = 2, min = 1): number {
  if (spread === null) return max;
  for (let d = max; d > min; d--) if (spread <= 0.5 * 10 ** -d) return d;
  return min;
}

/** Pure: the spread moves the endpoints by more than the half-unit of `digits` decimals. */
export const spreadBeyondDigits = (spread: number | null, digits: number): boolean => spread !== null && spread > 0.5 * 10 ** -digits;
