// Pure: differenceResults() of difference-results.ts, the same list and the
// same numbers, with the two-level bootstraps of stats/two-level-bootstrap-fast.ts.
// The analysis stage uses this one; the sample stage's confirmation step keeps
// difference-results.ts, whose code is part of the published sample-stage key.
// test/analysis-difference-results-fast.test.ts holds the two equal.
import { pairSessions, type SessionRow } from '../stats/two-level-bootstrap.js';
import { twoLevelBootstrapFast } from '../stats/two-level-bootstrap-fast.js';
import { sessionTInterval } from '../stats/session-t-interval.js';
import { isDetected } from '../stats/detection-rule.js';
import { cellKey, metricValue, rowsByCell } from './difference-results.js';
import type { AnalysisRules, Comparison } from './analysis-rules.js';
import type { DifferenceResult } from './analysis-result.js';
import type { SampleData } from './sample-data.js';

function uniqueSorted(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

export function fastDifferenceResults(
  data: Pick<SampleData, 'cells' | 'values'>,
  rules: AnalysisRules,
  comparisons: readonly Comparison[],
): DifferenceResult[] {
  return differenceResultsShare(data, rules, comparisons, 0, 1).map((d) => d[1]);
}

/** The differences numbered part, part + parts, ... in the order of differenceResults(): [number, difference]. */
export function differenceResultsShare(
  data: Pick<SampleData, 'cells' | 'values'>,
  rules: AnalysisRules,
  comparisons: readonly Comparison[],
  part: number,
  parts: number,
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
          const r = twoLevelBootstrapFast(pairSessions(rows, cmp.a, cmp.b), {
            resamples: rules.bootstrap.resamples,
            confidence: rules.bootstrap.confidence,
            seed: [rules.bootstrap.seed, cohort, state, metric, cmp.a, cmp.b].join('|'),
          });
          const between = sessionTInterval(
            r.perSession.map((s) => s.observed),
            rules.bootstrap.confidence,
          );
          differences.push([
            task,
            {
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
            },
          ]);
        }
      }
    }
  }
  return differences;
}
