// Pure: the differences a − b of the configured comparisons, per cohort ×
// state × metric, each with its two-level bootstrap interval, its
// between-session t interval and the detection rule's verdict. Used by the
// analysis (analyze-samples.ts) and, on the first K sessions, by the sample
// stage's confirmation step (design.confirm), so both apply the same rule.
import { UserError } from '../errors.js';
import { pairSessions, twoLevelBootstrap } from '../stats/two-level-bootstrap.js';
import { sessionTInterval } from '../stats/session-t-interval.js';
import { isDetected } from '../stats/detection-rule.js';
import type { AnalysisRules, Comparison, MetricId } from './analysis-rules.js';
import type { DifferenceResult } from './analysis-result.js';
import type { SampleData, ValueRow } from './sample-data.js';

export const metricValue: Record<MetricId, (r: ValueRow) => number | null> = {
  ready: (r) => r.readyMs,
  completion: (r) => r.completionMs,
};

/** The key of a cell (or any tuple of ids) in the analysis's maps. */
export const cellKey = (...parts: string[]): string => parts.join('\u0000');

function uniqueSorted(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** Every difference of the comparisons found in the data (both paths sampled in the cohort). */
/** The valid formal rows of each cell, by cellKey(cohort, path, state). */
export function rowsByCell(values: readonly ValueRow[]): Map<string, ValueRow[]> {
  const out = new Map<string, ValueRow[]>();
  for (const r of values) {
    const k = cellKey(r.cohort, r.path, r.state);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(r);
  }
  return out;
}

export function differenceResults(data: Pick<SampleData, 'cells' | 'values'>, rules: AnalysisRules, comparisons: readonly Comparison[]): DifferenceResult[] {
  const byCell = rowsByCell(data.values);
  const cellValues = (cohort: string, path: string, state: string, metric: MetricId): { session: number; round: number; value: number; path: string }[] => {
    const out: { session: number; round: number; value: number; path: string }[] = [];
    for (const r of byCell.get(cellKey(cohort, path, state)) ?? []) {
      const v = metricValue[metric](r);
      if (v !== null && Number.isFinite(v)) out.push({ session: r.session, round: r.round, value: v, path });
    }
    return out;
  };
  const cohorts = uniqueSorted(data.cells.map((c) => c.cohort));
  const states = uniqueSorted(data.cells.map((c) => c.state));
  const pathsOf = (cohort: string): string[] => uniqueSorted(data.cells.filter((c) => c.cohort === cohort).map((c) => c.path));
  const differences: DifferenceResult[] = [];
  for (const cohort of cohorts) {
    const paths = pathsOf(cohort);
    for (const cmp of comparisons) {
      if (!paths.includes(cmp.a) || !paths.includes(cmp.b)) continue;
      for (const state of states) {
        for (const metric of rules.metrics) {
          const rows = [...cellValues(cohort, cmp.a, state, metric), ...cellValues(cohort, cmp.b, state, metric)];
          const r = twoLevelBootstrap(pairSessions(rows, cmp.a, cmp.b), {
            resamples: rules.bootstrap.resamples,
            confidence: rules.bootstrap.confidence,
            seed: [rules.bootstrap.seed, cohort, state, metric, cmp.a, cmp.b].join('|'),
          });
          const between = sessionTInterval(
            r.perSession.map((s) => s.observed),
            rules.bootstrap.confidence,
          );
          differences.push({
            cohort,
            state,
            metric,
            a: cmp.a,
            b: cmp.b,
            rounds: r.rounds,
            sessions: r.sessions,
            perSession: r.perSession.map((s) => ({ session: s.session, rounds: s.rounds, observedMs: s.observed, direction: s.direction })),
            sameDirection: r.sameDirection,
            betweenSessionEstimated: r.betweenSessionEstimated,
            observedMs: r.observed,
            lowMs: r.low,
            highMs: r.high,
            resamples: r.resamples,
            confidence: r.confidence,
            sessionLowMs: between?.low ?? null,
            sessionHighMs: between?.high ?? null,
            detected: isDetected(r, between),
          });
        }
      }
    }
  }
  return differences;
}

/** The configured comparisons, checked against the sampled paths; none configured: every pair, alphabetical, a before b. */
export function resolveComparisons(configured: readonly Comparison[], paths: readonly string[]): Comparison[] {
  if (configured.length === 0) {
    const all: Comparison[] = [];
    for (let i = 0; i < paths.length; i++) for (let j = i + 1; j < paths.length; j++) all.push({ a: paths[i]!, b: paths[j]! });
    return all;
  }
  configured.forEach((c, i) => {
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
  return [...configured];
}
