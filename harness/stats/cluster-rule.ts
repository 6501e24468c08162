// The cluster rule: a deterministic, configurable test of whether a cell's
// values separate into groups.
//
// Sort the values. A partition cuts them into g contiguous groups, each
// holding at least `minGroupShare` of the cell's values and at least
// `minGroupN` values (never fewer than 2). Each
// boundary between two neighbouring groups gets a score: the gap at the
// boundary (smallest value above it minus largest value below it) divided by
// the pooled standard deviation of those two neighbouring groups only,
// sqrt((SS_left + SS_right) / (n_left + n_right - 2)). A partition's score is
// its weakest boundary. For g = maxGroups down to 2, the partition of g groups
// with the highest score (the first in boundary order on ties) is taken when
// that score is >= `minGapRatio`; otherwise the cell stays one group.
//
// Scaling each gap by its two neighbours, not by the pooled spread of
// everything on either side, is what lets a third mode show: with three modes,
// the two-way split puts two modes on one side and their distance inflates
// that side's spread (issue 18: the numpy cold oci-full cell scored 2.51
// pooled SDs as two groups, and splits cleanly as three). With g = 2 the score
// is the former rule's exactly.
//
// Boundaries are sought among the `candidateGaps` largest gaps of the cell
// (every gap for cells of up to 49 values), so the search stays cheap for
// large cells (at most C(48, g-1) partitions). No value is ever dropped:
// groups partition the cell.

import { quantileSorted } from './quantile.js';

export interface ClusterRule {
  /** Gap between neighbouring groups divided by the pooled standard deviation of those two groups, needed at every boundary. */
  minGapRatio: number;
  /** Smallest share of the cell's values a group may hold, in (0, 0.5]. */
  minGroupShare: number;
  /** Fewest values a group may hold, whatever the share (at least 2): 3, 4 and 3 of 10 launches are not clusters. Absent: 2. */
  minGroupN?: number;
  /** Most groups a cell may be split into (1 disables splitting). */
  maxGroups: number;
}

export const defaultClusterRule: ClusterRule = { minGapRatio: 3, minGroupShare: 0.15, minGroupN: 5, maxGroups: 4 };

/** Boundaries are chosen among this many of the largest gaps. */
export const candidateGaps = 48;

export interface ClusterGroup {
  n: number;
  /** n / cell n. */
  share: number;
  median: number;
  min: number;
  max: number;
}

/** Groups of an ascending-sorted array, lowest first; one group when the cell does not split. */
export function clusterSorted(sorted: readonly number[], rule: ClusterRule): ClusterGroup[] {
  const n = sorted.length;
  if (n === 0) return [];
  const minSize = Math.max(2, rule.minGroupN ?? 2, Math.ceil(rule.minGroupShare * n - 1e-9));
  const cuts = candidateCuts(sorted, minSize);
  const ss = sumOfSquares(sorted);
  for (let g = Math.min(rule.maxGroups, Math.floor(n / minSize)); g >= 2; g--) {
    const best = bestPartition(sorted, cuts, g, minSize, ss);
    if (best !== null && best.score >= rule.minGapRatio) return groupsOf(sorted, best.cuts);
  }
  return groupsOf(sorted, []);
}

/** First indices of an upper group, ascending: the largest gaps that leave minSize values on each end. */
function candidateCuts(sorted: readonly number[], minSize: number): number[] {
  const n = sorted.length;
  const all: number[] = [];
  for (let k = minSize; k <= n - minSize; k++) if (sorted[k]! - sorted[k - 1]! > 0) all.push(k);
  if (all.length <= candidateGaps) return all;
  const gap = (k: number): number => sorted[k]! - sorted[k - 1]!;
  return all
    .sort((x, y) => gap(y) - gap(x) || x - y)
    .slice(0, candidateGaps)
    .sort((x, y) => x - y);
}

/** Sum of squared deviations of sorted[from..to) from their mean, by centred prefix sums. */
function sumOfSquares(sorted: readonly number[]): (from: number, to: number) => number {
  const n = sorted.length;
  const centre = sorted[n >> 1]!;
  const s1 = new Float64Array(n + 1);
  const s2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const d = sorted[i]! - centre;
    s1[i + 1] = s1[i]! + d;
    s2[i + 1] = s2[i]! + d * d;
  }
  return (from, to) => {
    const m = to - from;
    const sum = s1[to]! - s1[from]!;
    return Math.max(0, s2[to]! - s2[from]! - (sum * sum) / m);
  };
}

/** The score of the boundary at `cut` between groups [from, cut) and [cut, to). */
function boundaryScore(sorted: readonly number[], from: number, cut: number, to: number, ss: (f: number, t: number) => number): number {
  const gap = sorted[cut]! - sorted[cut - 1]!;
  const pooled = Math.sqrt((ss(from, cut) + ss(cut, to)) / (to - from - 2));
  return pooled > 0 ? gap / pooled : Number.POSITIVE_INFINITY;
}

/** The g-group partition (g - 1 cuts from `cuts`) whose weakest boundary scores highest. */
function bestPartition(
  sorted: readonly number[],
  cuts: readonly number[],
  g: number,
  minSize: number,
  ss: (f: number, t: number) => number,
): { cuts: number[]; score: number } | null {
  const n = sorted.length;
  let best: { cuts: number[]; score: number } | null = null;
  const chosen: number[] = [];
  const visit = (start: number, from: number): void => {
    if (chosen.length === g - 1) {
      if (n - from < minSize) return;
      const bounds = [0, ...chosen, n];
      let score = Number.POSITIVE_INFINITY;
      for (let i = 1; i < bounds.length - 1; i++) score = Math.min(score, boundaryScore(sorted, bounds[i - 1]!, bounds[i]!, bounds[i + 1]!, ss));
      if (best === null || score > best.score) best = { cuts: [...chosen], score };
      return;
    }
    for (let i = start; i < cuts.length; i++) {
      const cut = cuts[i]!;
      if (cut - from < minSize) continue;
      if (n - cut < minSize * (g - 1 - chosen.length)) break;
      chosen.push(cut);
      visit(i + 1, cut);
      chosen.pop();
    }
  };
  visit(0, 0);
  return best;
}

function groupsOf(sorted: readonly number[], cuts: readonly number[]): ClusterGroup[] {
  const n = sorted.length;
  const bounds = [0, ...cuts, n];
  const out: ClusterGroup[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const part = sorted.slice(bounds[i], bounds[i + 1]);
    out.push({ n: part.length, share: part.length / n, median: quantileSorted(part, 0.5), min: part[0]!, max: part[part.length - 1]! });
  }
  return out;
}
