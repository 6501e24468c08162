// Predecessor effect of one cell: does a launch take longer after one path
// than after another?
//
// Launches are grouped by the path run just before them in the same round
// (null: the launch's path ran first, grouped as "first"). The median of
// each group is reported. Among the groups with at least `minGroupN`
// launches, the effect is the largest ratio between two group medians,
// slowest / fastest (so it is >= 1). Its interval is the two-sample
// bootstrap of ratio-of-medians.ts for that pair at the Bonferroni level
// 1 - (1 - c) / m, m = the number of pairs of eligible groups: the pair is
// chosen on the data, and the m simultaneous intervals at that level cover
// all pairs with probability at least c, so the chosen one too.
// null with fewer than two eligible groups.
import { median } from './quantile.js';
import { ratioOfMedians, type RatioInterval, type RatioOptions } from './ratio-of-medians.js';

export interface PrecededValue {
  value: number;
  /** The path that ran just before in the same round; null for the round's first path. */
  previous: string | null;
}

export interface PredecessorEffect extends RatioInterval {
  /** Median after each predecessor (null: first in its round), ordered by predecessor with "first" first. */
  byPredecessor: { previous: string | null; n: number; median: number }[];
  /** The predecessor after which the median is largest, and the one after which it is smallest. */
  slowAfter: string | null;
  fastAfter: string | null;
  /** Pairs of eligible groups (the Bonferroni m). */
  pairs: number;
}

export function predecessorEffect(values: readonly PrecededValue[], minGroupN: number, o: RatioOptions): PredecessorEffect | null {
  const groups = new Map<string | null, number[]>();
  for (const v of values) {
    let list = groups.get(v.previous);
    if (!list) groups.set(v.previous, (list = []));
    list.push(v.value);
  }
  const byPredecessor = [...groups.keys()]
    .sort((x, y) => (x === null ? -1 : y === null ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map((previous) => ({ previous, n: groups.get(previous)!.length, median: median(groups.get(previous)!) }));
  const eligible = byPredecessor.filter((g) => g.n >= minGroupN && g.median > 0);
  if (eligible.length < 2) return null;
  // first in predecessor order on ties
  const slow = eligible.reduce((a, g) => (g.median > a.median ? g : a));
  const fast = eligible.reduce((a, g) => (g.median < a.median ? g : a));
  const pairs = (eligible.length * (eligible.length - 1)) / 2;
  const r = ratioOfMedians(groups.get(slow.previous)!, groups.get(fast.previous)!, { ...o, confidence: 1 - (1 - o.confidence) / pairs });
  if (r === null) return null;
  return { ...r, byPredecessor, slowAfter: slow.previous, fastAfter: fast.previous, pairs };
}
