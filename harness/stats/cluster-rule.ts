// The cluster rule: a deterministic, configurable test of whether a cell's
// values separate into groups.
//
// Sort the values. A candidate split point divides them into a lower and an
// upper part, each holding at least `minGroupShare` of the cell's values (and
// at least 2). Its score is the gap between the two parts (smallest upper value
// minus largest lower value) divided by the pooled within-part standard
// deviation, sqrt((SS_lower + SS_upper) / (n_lower + n_upper - 2)). The
// candidate with the highest score (the first on ties) splits the group when
// score >= `minGapRatio`. Splitting repeats on the resulting groups, always
// taking the best remaining candidate, until `maxGroups` groups exist or no
// candidate reaches the ratio. No value is ever dropped: groups partition the cell.

import { quantileSorted } from './quantile.js';

export interface ClusterRule {
  /** Gap between groups divided by pooled within-group standard deviation needed to split. */
  minGapRatio: number;
  /** Smallest share of the cell's values a group may hold, in (0, 0.5]. */
  minGroupShare: number;
  /** Most groups a cell may be split into (1 disables splitting). */
  maxGroups: number;
}

export const defaultClusterRule: ClusterRule = { minGapRatio: 3, minGroupShare: 0.2, maxGroups: 2 };

export interface ClusterGroup {
  n: number;
  /** n / cell n. */
  share: number;
  median: number;
  min: number;
  max: number;
}

interface Range {
  start: number; // inclusive
  end: number; // exclusive
}

interface Candidate {
  range: Range;
  at: number; // first index of the upper part
  score: number;
}

/** Groups of an ascending-sorted array, lowest first; one group when the cell does not split. */
export function clusterSorted(sorted: readonly number[], rule: ClusterRule): ClusterGroup[] {
  const n = sorted.length;
  if (n === 0) return [];
  const minSize = Math.max(2, Math.ceil(rule.minGroupShare * n - 1e-9));
  let ranges: Range[] = [{ start: 0, end: n }];
  while (ranges.length < rule.maxGroups) {
    let best: Candidate | null = null;
    for (const range of ranges) {
      const c = bestSplit(sorted, range, minSize);
      if (c && (best === null || c.score > best.score)) best = c;
    }
    if (best === null || !(best.score >= rule.minGapRatio)) break;
    const b = best;
    ranges = ranges.flatMap((r) =>
      r === b.range
        ? [
            { start: r.start, end: b.at },
            { start: b.at, end: r.end },
          ]
        : [r],
    );
  }
  return ranges.map((r) => group(sorted, r, n));
}

function bestSplit(sorted: readonly number[], range: Range, minSize: number): Candidate | null {
  const size = range.end - range.start;
  if (size < 2 * minSize) return null;
  // Prefix sums of centred values keep the sums of squares accurate.
  const centre = sorted[range.start + (size >> 1)]!;
  const s1 = new Float64Array(size + 1);
  const s2 = new Float64Array(size + 1);
  for (let i = 0; i < size; i++) {
    const d = sorted[range.start + i]! - centre;
    s1[i + 1] = s1[i]! + d;
    s2[i + 1] = s2[i]! + d * d;
  }
  const ss = (from: number, to: number): number => {
    const m = to - from;
    const sum = s1[to]! - s1[from]!;
    return Math.max(0, s2[to]! - s2[from]! - (sum * sum) / m);
  };
  let best: Candidate | null = null;
  for (let k = minSize; k <= size - minSize; k++) {
    const gap = sorted[range.start + k]! - sorted[range.start + k - 1]!;
    if (!(gap > 0)) continue;
    const pooled = Math.sqrt((ss(0, k) + ss(k, size)) / (size - 2));
    const score = pooled > 0 ? gap / pooled : Number.POSITIVE_INFINITY;
    if (best === null || score > best.score) best = { range, at: range.start + k, score };
  }
  return best;
}

function group(sorted: readonly number[], r: Range, n: number): ClusterGroup {
  const part = sorted.slice(r.start, r.end);
  return { n: part.length, share: part.length / n, median: quantileSorted(part, 0.5), min: part[0]!, max: part[part.length - 1]! };
}
