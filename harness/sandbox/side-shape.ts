// Pure: the shape of one side of an effect row (its before or its after
// launches), so that no P50 or P90 stands for launches it does not describe.
// Far-out launches (stats/far-out.ts: beyond the quartiles by 3 IQR, and
// more than 5% from the median) are named with their session and round; the cluster rule of every experiment
// (stats/cluster-rule.ts, with its minimum group size, analysis.clusters)
// runs on the other launches, so one or two extreme launches, too few to be a
// group, neither hide a split nor make one. No launch is dropped from any
// statistic: the shape is said beside the numbers.
import { clusterSorted, type ClusterGroup, type ClusterRule } from '../stats/cluster-rule.js';
import { farOutFences, isFarOut, type FarOutFences } from '../stats/far-out.js';

export interface SideLaunch {
  session: number;
  round: number;
  value: number;
}

export interface SideShape {
  n: number;
  fences: FarOutFences | null;
  /** Launches beyond the far-out fences, farthest from the median first. */
  farOut: SideLaunch[];
  /** The cluster rule's groups of the other launches, lowest first (one group when they do not split). */
  groups: ClusterGroup[];
  /** The cluster rule split the other launches into more than one group. */
  split: boolean;
}

/** A launch within this share of its side's median is never far out (the practical margin's relative part). */
export const NEAR_MEDIAN = 0.05;

export function sideShape(launches: readonly SideLaunch[], rule: ClusterRule): SideShape {
  const sorted = launches.map((l) => l.value).sort((x, y) => x - y);
  const fences = farOutFences(sorted);
  const median = sorted.length ? sorted[(sorted.length - 1) >> 1]! : 0;
  // beyond the fences and more than NEAR_MEDIAN from the median: where almost every launch gives the same
  // value (a size in whole MiB), the quartiles meet and any other value would pass the fences alone
  const far = (v: number): boolean => isFarOut(v, fences) && Math.abs(v - median) > NEAR_MEDIAN * Math.abs(median);
  const farOut = launches
    .filter((l) => far(l.value))
    .sort((x, y) => Math.abs(y.value - median) - Math.abs(x.value - median) || x.session - y.session || x.round - y.round);
  const groups = clusterSorted(
    sorted.filter((v) => !far(v)),
    rule,
  );
  return { n: sorted.length, fences, farOut, groups, split: groups.length > 1 };
}
