// Position effect of one cell: does a launch take longer when its path runs
// late in its round than when it runs early?
//
// A round orders the cohort's P paths; a launch's position is its path's
// place in that order, 0-based. "First" positions are the lower half,
// 0 .. floor(P/2) - 1; "last" positions the upper half, ceil(P/2) .. P - 1;
// with an odd P the middle position belongs to neither. (P = 5: first 0-1,
// last 3-4; P = 2: first 0, last 1.) The effect is
// median(last) / median(first) with the two-sample bootstrap interval of
// ratio-of-medians.ts; null with P < 2, or when a half holds fewer than
// `minGroupN` launches (at least 1).
import { median } from './quantile.js';
import { ratioOfMedians, type RatioInterval, type RatioOptions } from './ratio-of-medians.js';

export interface PositionedValue {
  value: number;
  /** 0-based position of the launch's path in its round's order within the cohort. */
  position: number;
}

export interface PositionEffect extends RatioInterval {
  /** Positions counted as first (lower half) and last (upper half). */
  firstPositions: number[];
  lastPositions: number[];
  nFirst: number;
  nLast: number;
  firstMedian: number;
  lastMedian: number;
  /** Median and count at every position, ascending. */
  byPosition: { position: number; n: number; median: number }[];
}

export function positionHalves(positions: number): { first: number[]; last: number[] } {
  const first = Array.from({ length: Math.floor(positions / 2) }, (_, i) => i);
  const last = Array.from({ length: Math.floor(positions / 2) }, (_, i) => Math.ceil(positions / 2) + i);
  return { first, last };
}

/** `positions`: P, the number of paths in the cohort's rounds. */
export function positionEffect(values: readonly PositionedValue[], positions: number, minGroupN: number, o: RatioOptions): PositionEffect | null {
  if (positions < 2) return null;
  const { first, last } = positionHalves(positions);
  const early = values.filter((v) => first.includes(v.position)).map((v) => v.value);
  const late = values.filter((v) => last.includes(v.position)).map((v) => v.value);
  if (early.length < Math.max(1, minGroupN) || late.length < Math.max(1, minGroupN)) return null;
  const r = ratioOfMedians(late, early, o);
  if (r === null) return null;
  const at = new Map<number, number[]>();
  for (const v of values) {
    let list = at.get(v.position);
    if (!list) at.set(v.position, (list = []));
    list.push(v.value);
  }
  return {
    ...r,
    firstPositions: first,
    lastPositions: last,
    nFirst: early.length,
    nLast: late.length,
    firstMedian: median(early),
    lastMedian: median(late),
    byPosition: [...at.keys()].sort((x, y) => x - y).map((position) => ({ position, n: at.get(position)!.length, median: median(at.get(position)!) })),
  };
}
