// Pure: the differences a − b of the configured comparisons, per cohort ×
// state × metric, each the one comparison record (difference-record.ts): its
// two-level bootstrap interval, its between-session t interval and the
// detection rule's findings. Used by the
// analysis (analyze-samples.ts) and, on the first K sessions, by the sample
// stage's confirmation step (design.confirm), so both apply the same rule.
import { UserError } from '../errors.js';
import { pairSessions, twoLevelBootstrap } from '../stats/two-level-bootstrap.js';
import { endpointSpread, seedCheckSeeds } from '../stats/seed-spread.js';
import { msComparison } from './difference-record.js';
import type { AnalysisRules, Comparison, MetricId } from '../config/analysis-rules.js';
import type { DifferenceResult } from './analysis-result.js';
import type { SampleData, ValueRow } from './sample-data.js';
import type { SessionRow } from '../stats/two-level-bootstrap.js';

export const metricValue: Record<MetricId, (r: ValueRow) => number | null> = {
  ready: (r) => r.readyMs,
  completion: (r) => r.completionMs,
};

/** The key of a cell (or any tuple of ids) in the analysis's maps. */
export const cellKey = (...parts: string[]): string => parts.join('\u0000');

function uniqueSorted(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** The valid formal rows (or launches' spans) of each cell, by cellKey(cohort, path, state). */
export function rowsByCell<T extends Pick<ValueRow, 'cohort' | 'path' | 'state'>>(values: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of values) {
    const k = cellKey(r.cohort, r.path, r.state);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(r);
  }
  return out;
}

/**
 * Every difference of the comparisons found in the data (both paths sampled in the cohort), in a fixed order.
 * `seedCheck`: also draw each interval under stats/seed-spread.ts's other seeds and record how far its endpoints
 * move (seedSpreadMs), which the report prints them by; the analysis does, the confirmation step need not.
 */
export function differenceResults(
  data: Pick<SampleData, 'cells' | 'values'>,
  rules: AnalysisRules,
  comparisons: readonly Comparison[],
  seedCheck = false,
): DifferenceResult[] {
  return differenceResultsShare(data, rules, comparisons, 0, 1, seedCheck).map((d) => d[1]);
}

/** The differences numbered part, part + parts, ... in the order of differenceResults(): [number, difference]. */
export function differenceResultsShare(
  data: Pick<SampleData, 'cells' | 'values'>,
  rules: AnalysisRules,
  comparisons: readonly Comparison[],
  part: number,
  parts: number,
  seedCheck = false,
): [number, DifferenceResult][] {
  const byCell = rowsByCell(data.values);
  const cohorts = uniqueSorted(data.cells.map((c) => c.cohort));
  const states = uniqueSorted(data.cells.map((c) => c.state));
  const paths = new Map(cohorts.map((cohort) => [cohort, new Set(data.cells.filter((c) => c.cohort === cohort).map((c) => c.path))]));
  const differences: [number, DifferenceResult][] = [];
  let task = -1;
  for (const cohort of cohorts) {
    const sampled = paths.get(cohort)!;
    for (const cmp of comparisons) {
      if (!sampled.has(cmp.a) || !sampled.has(cmp.b)) continue;
      for (const state of states) {
        for (const metric of rules.metrics) {
          if (++task % parts !== part) continue;
          const value = metricValue[metric];
          const rows: SessionRow[] = [];
          for (const path of [cmp.a, cmp.b]) {
            for (const r of byCell.get(cellKey(cohort, path, state)) ?? []) {
              const v = value(r);
              if (v !== null && Number.isFinite(v)) rows.push({ session: r.session, round: r.round, value: v, path });
            }
          }
          const sessions = pairSessions(rows, cmp.a, cmp.b);
          const options = {
            resamples: rules.bootstrap.resamples,
            confidence: rules.bootstrap.confidence,
            seed: [rules.bootstrap.seed, cohort, state, metric, cmp.a, cmp.b].join('|'),
          };
          const comparison = msComparison(sessions, options);
          const spread = seedCheck
            ? {
                seedSpreadMs: endpointSpread(
                  { low: comparison.lowMs, high: comparison.highMs },
                  comparison.lowMs === null ? [] : seedCheckSeeds.map((s) => twoLevelBootstrap(sessions, { ...options, seed: `${options.seed}|${s}` })),
                ),
              }
            : {};
          differences.push([task, { cohort, state, metric, a: cmp.a, b: cmp.b, ...comparison, ...spread }]);
        }
      }
    }
  }
  return differences;
}

/**
 * The configured comparisons between arms (paths), checked against the sampled paths; none configured (or
 * only comparisons along another factor, which are factor-differences.ts's): every pair, alphabetical, a before b.
 */
export function resolveComparisons(configured: readonly Comparison[], paths: readonly string[]): Comparison[] {
  if (!configured.some((c) => !c.factor)) {
    const all: Comparison[] = [];
    for (let i = 0; i < paths.length; i++) for (let j = i + 1; j < paths.length; j++) all.push({ a: paths[i]!, b: paths[j]! });
    return all;
  }
  configured.forEach((c, i) => {
    if (c.factor) return;
    for (const side of ['a', 'b'] as const) {
      if (!paths.includes(c[side])) {
        throw new UserError(
          `path ${JSON.stringify(c[side])} has no formal samples`,
          { key: `analysis.comparisons[${i}].${side}` },
          `use one of: ${paths.join(', ') || '(no paths sampled)'}`,
        );
      }
    }
  });
  return configured.filter((c) => !c.factor);
}
