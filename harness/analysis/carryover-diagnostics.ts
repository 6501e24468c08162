// The carryover diagnostics of one cell and its verdict (issue 18): the
// position effect and the predecessor effect with their intervals, each
// flagged by analysis.carryover.min_ratio, and the cell's verdict
// (analysis-result.ts CarryoverVerdict): order-effect, unresolved (a ratio
// reaches the size but its interval includes 1), within-size. The predecessor
// ratio is the largest of several, so by chance alone it tends to exceed 1:
// 'unresolved' is a prompt to look, not a finding. Pure.
import { excludesOne } from '../stats/ratio-of-medians.js';
import { positionEffect } from '../stats/position-effect.js';
import { predecessorEffect } from '../stats/predecessor-effect.js';
import type { AnalysisRules } from '../config/analysis-rules.js';
import type { CarryoverVerdict, PositionEffectResult, PredecessorEffectResult } from './analysis-result.js';
import type { ValueRow } from './sample-data.js';

export interface CellCarryover {
  position: PositionEffectResult | null;
  predecessor: PredecessorEffectResult | null;
  orderEffect: boolean;
  carryover: CarryoverVerdict;
}

/**
 * `rows`: the cell's valid formal launches; `positions`: the paths of its
 * cohort's rounds; `id`: cohort, path, state, metric, which seed the resamples
 * (seed|carryover|position or predecessor|cohort|path|state|metric).
 */
export function carryoverOf(
  rows: readonly ValueRow[],
  value: (r: ValueRow) => number | null,
  positions: number,
  rules: AnalysisRules,
  id: string[],
): CellCarryover {
  const values = rows.flatMap((r) => {
    const v = value(r);
    return v !== null && Number.isFinite(v) ? [{ value: v, position: r.position, previous: r.previousPath }] : [];
  });
  const options = (kind: string): { resamples: number; confidence: number; seed: string } => ({
    resamples: rules.bootstrap.resamples,
    confidence: rules.bootstrap.confidence,
    seed: [rules.bootstrap.seed, 'carryover', kind, ...id].join('|'),
  });
  const minRatio = rules.carryover.minRatio;
  const p = positionEffect(values, positions, rules.carryover.minGroupN, options('position'));
  const position: PositionEffectResult | null = p && {
    positions,
    firstPositions: p.firstPositions,
    lastPositions: p.lastPositions,
    nFirst: p.nFirst,
    nLast: p.nLast,
    firstMedianMs: p.firstMedian,
    lastMedianMs: p.lastMedian,
    ratio: p.ratio,
    low: p.low,
    high: p.high,
    confidence: p.confidence,
    resamples: p.resamples,
    byPosition: p.byPosition.map((b) => ({ position: b.position, n: b.n, medianMs: b.median })),
    flagged: excludesOne(p) && Math.max(p.ratio, 1 / p.ratio) >= minRatio,
  };
  const q = predecessorEffect(values, rules.carryover.minGroupN, options('predecessor'));
  const predecessor: PredecessorEffectResult | null = q && {
    byPredecessor: q.byPredecessor.map((b) => ({ previous: b.previous, n: b.n, medianMs: b.median })),
    slowAfter: q.slowAfter,
    fastAfter: q.fastAfter,
    ratio: q.ratio,
    low: q.low,
    high: q.high,
    confidence: q.confidence,
    pairs: q.pairs,
    resamples: q.resamples,
    flagged: q.low > 1 && q.ratio >= minRatio,
  };
  const orderEffect = !!position?.flagged || !!predecessor?.flagged;
  const large = (position !== null && Math.max(position.ratio, 1 / position.ratio) >= minRatio) || (predecessor !== null && predecessor.ratio >= minRatio);
  const carryover: CarryoverVerdict =
    position === null && predecessor === null ? 'not-estimated' : orderEffect ? 'order-effect' : large ? 'unresolved' : 'within-size';
  return { position, predecessor, orderEffect, carryover };
}
