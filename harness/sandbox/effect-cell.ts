// Pure: the effect cell of one row from its journaled formal launches: P50
// and P90 of each side over every session, and the after / before ratio of
// medians through the one comparison statistic (stats/paired-comparison.ts):
// a two-level bootstrap interval over sessions and rounds, the
// between-session interval with 3 or more sessions, the direction in each
// session, and the named findings; and the shape of each side (side-shape.ts:
// far-out launches named, the cluster rule on the rest).
import type { EffectRow } from '../config/effects-section.js';
import type { SampleRow } from '../db/sample-row.js';
import type { BootstrapOptions } from '../stats/paired-bootstrap.js';
import { judgedComparison, type JudgedComparison } from '../analysis/direction-rule.js';
import { quantile } from '../stats/quantile.js';
import { pairSessions, type SessionRow } from '../stats/two-level-bootstrap.js';
import { effectValue } from './effect-arm.js';
import { defaultClusterRule, type ClusterRule } from '../stats/cluster-rule.js';
import { sideShape, type SideShape } from './side-shape.js';
import { judge, type Judgement, type Looks } from '../comparison/judge.js';
import { defaultPracticalMargin, type PracticalMargin } from '../config/practical-margin.js';

export interface EffectCell {
  nBefore: number;
  nAfter: number;
  p50Before: number | null;
  p50After: number | null;
  p90Before: number | null;
  p90After: number | null;
  /** after / before: the ratio of medians with its intervals, per-session ratios and findings. */
  comparison: JudgedComparison;
  /** The verdict of after / before under analysis.practical, by the rule the sampling used (comparison/judge.ts). */
  judgement: Judgement;
  /** Each side's shape: far-out launches and the cluster rule's groups. Absent in effects.json written before it. */
  shape?: { before: SideShape; after: SideShape };
}

/** The formal, valid values of one row as session rows (path = side). */
export function effectSessionRows(row: EffectRow, samples: readonly SampleRow[]): SessionRow[] {
  const out: SessionRow[] = [];
  for (const s of samples) {
    if (s['cohort'] !== row.id || s['phase'] !== 'formal' || s['ok'] !== true) continue;
    const value = effectValue(row, s);
    if (value !== null) out.push({ session: Number(s['session']), round: Number(s['round']), path: String(s['path']), value });
  }
  return out;
}

export function effectCell(
  row: EffectRow,
  samples: readonly SampleRow[],
  options: BootstrapOptions,
  clusters: ClusterRule = defaultClusterRule,
  judging: { margin: PracticalMargin; looks: Looks | null } = { margin: defaultPracticalMargin, looks: null },
): EffectCell {
  const rows = effectSessionRows(row, samples);
  const side = (name: string): number[] => rows.filter((r) => r.path === name).map((r) => r.value);
  const shapeOf = (name: string): SideShape =>
    sideShape(
      rows.filter((r) => r.path === name),
      clusters,
    );
  const before = side('before');
  const after = side('after');
  const q = (v: number[], p: number): number | null => (v.length ? quantile(v, p) : null);
  const sessions = pairSessions(rows, 'after', 'before');
  const comparison = judgedComparison(sessions, 'ratio', options);
  return {
    nBefore: before.length,
    nAfter: after.length,
    p50Before: q(before, 0.5),
    p50After: q(after, 0.5),
    p90Before: q(before, 0.9),
    p90After: q(after, 0.9),
    comparison,
    judgement: judge(comparison, sessions, row.unit === 'ms' ? q(before, 0.5) : null, judging.margin, judging.looks),
    shape: { before: shapeOf('before'), after: shapeOf('after') },
  };
}
