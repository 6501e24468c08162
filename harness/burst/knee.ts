// Pure: the knee of a path's latency–concurrency curve, the smallest N whose
// Ready P50 exceeds the sequential one (N = 1) by more than the practical
// margin: a ratio above 1 + δ, δ the wider of analysis.practical's
// min_ratio_change and min_ms over the N = 1 P50 (the same margin as every
// verdict). On the levels sampled, from each level's ratio interval
// (concurrency-curve.ts ratioToSequential):
// - estimate: the smallest N whose ratio is above 1 + δ;
// - interval: from the smallest N whose interval reaches above 1 + δ (the
//   knee may already be there) to the smallest N whose whole interval lies
//   above it (the knee is there at the latest).
// Each end is a level sampled, or "beyond the largest N sampled" (null). The
// interval is made of per-level 95% intervals, so it is a range of levels,
// not a 95% interval of a continuous knee; the report says so.
import type { CurvePoint } from './concurrency-curve.js';

export interface PracticalMargin {
  minRatioChange: number;
  minMs: number;
}

export interface Knee {
  path: string;
  /** 1 + δ. */
  thresholdRatio: number;
  /** null: no level sampled is above the threshold. */
  level: number | null;
  /** The earliest level the knee may be at; null: beyond the largest N sampled. */
  earliest: number | null;
  /** The level by which it surely is; null: beyond the largest N sampled. */
  latest: number | null;
  largestLevel: number;
}

/** The knee of one path; null without an N = 1 P50 or a level above 1. */
export function kneeOf(points: readonly CurvePoint[], path: string, margin: PracticalMargin): Knee | null {
  const mine = points.filter((p) => p.path === path).sort((a, b) => a.level - b.level);
  const base = mine.find((p) => p.level === 1)?.p50Ms?.value;
  const above = mine.filter((p) => p.level > 1 && p.ratioToSequential !== null);
  if (base === undefined || !(base > 0) || !above.length) return null;
  const thresholdRatio = 1 + Math.max(margin.minRatioChange, margin.minMs / base);
  const first = (ok: (p: CurvePoint) => boolean): number | null => above.find(ok)?.level ?? null;
  return {
    path,
    thresholdRatio,
    level: first((p) => p.ratioToSequential!.value > thresholdRatio),
    earliest: first((p) => (p.ratioToSequential!.high ?? Infinity) > thresholdRatio),
    latest: first((p) => p.ratioToSequential!.low !== null && p.ratioToSequential!.low > thresholdRatio),
    largestLevel: mine[mine.length - 1]!.level,
  };
}
