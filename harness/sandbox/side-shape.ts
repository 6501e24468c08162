// Pure: the shape of one side of an effect row (its before or its after
// launches), so that no P50 or P90 stands for launches it does not describe.
// Far-out launches (stats/far-out.ts: beyond the quartiles by 3 IQR) are
// named with their session and round; the cluster rule of every experiment
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

export function sideShape(launches: readonly SideLaunch[], rule: ClusterRule): SideShape {
  const sorted = launches.map((l) => l.value).sort((x, y) => x - y);
  const fences = farOutFences(sorted);
  const median = sorted.length ? sorted[(sorted.length - 1) >> 1]! : 0;
  const farOut = launches
    .filter((l) => isFarOut(l.value, fences))
    .sort((x, y) => Math.abs(y.value - median) - Math.abs(x.value - median) || x.session - y.session || x.round - y.round);
  const groups = clusterSorted(
    sorted.filter((v) => !isFarOut(v, fences)),
    rule,
  );
  return { n: sorted.length, fences, farOut, groups, split: groups.length > 1 };
}
