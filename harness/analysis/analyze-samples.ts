// The pure analysis: from grouped sample data and the rules to analysis.json.
import { UserError } from '../errors.js';
import { summarizeBytes } from '../stats/byte-summary.js';
import { summarizeSorted } from '../stats/cell-summary.js';
import { clusterSorted } from '../stats/cluster-rule.js';
import { dominanceSorted } from '../stats/dominance.js';
import { pairedRoundBootstrap, type PairedRound } from '../stats/paired-bootstrap.js';
import { sortedAscending } from '../stats/sorted-values.js';
import type { AnalysisRules, Comparison, MetricId } from './analysis-rules.js';
import {
  analysisFormat, quantileDefinition,
  type AnalysisResult, type BytesResult, type CellStatistics, type DifferenceResult, type DominanceResult, type PreparationCost,
} from './analysis-result.js';
import type { SampleData, ValueRow } from './sample-data.js';

const metricValue: Record<MetricId, (r: ValueRow) => number | null> = {
  ready: (r) => r.readyMs,
  completion: (r) => r.completionMs,
};

const key = (...parts: string[]): string => parts.join('\u0000');

function uniqueSorted(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

export function analyzeSamples(data: SampleData, rules: AnalysisRules, preparation: PreparationCost[] | null): AnalysisResult {
  const rowsByCell = new Map<string, ValueRow[]>();
  for (const r of data.values) {
    const k = key(r.cohort, r.path, r.state);
    let list = rowsByCell.get(k);
    if (!list) rowsByCell.set(k, (list = []));
    list.push(r);
  }
  const cohorts = uniqueSorted(data.cells.map((c) => c.cohort));
  const states = uniqueSorted(data.cells.map((c) => c.state));
  const allPaths = uniqueSorted(data.cells.map((c) => c.path));
  const pathsOf = (cohort: string): string[] => uniqueSorted(data.cells.filter((c) => c.cohort === cohort).map((c) => c.path));

  const sortedCache = new Map<string, number[]>();
  const sortedValues = (cohort: string, path: string, state: string, metric: MetricId): number[] => {
    const k = key(cohort, path, state, metric);
    let s = sortedCache.get(k);
    if (!s) {
      const values: number[] = [];
      for (const r of rowsByCell.get(key(cohort, path, state)) ?? []) {
        const v = metricValue[metric](r);
        if (v !== null && Number.isFinite(v)) values.push(v);
      }
      sortedCache.set(k, (s = sortedAscending(values)));
    }
    return s;
  };

  const cells: CellStatistics[] = [];
  const bytes: BytesResult[] = [];
  for (const c of data.cells) {
    for (const metric of rules.metrics) {
      const sorted = sortedValues(c.cohort, c.path, c.state, metric);
      const s = summarizeSorted(sorted, rules.p95ReferenceBelowN);
      const groups = clusterSorted(sorted, rules.clusters);
      cells.push({
        cohort: c.cohort, path: c.path, state: c.state, metric,
        launches: c.launches, failures: c.failures, n: s.n,
        p50Ms: s.p50, p95Ms: s.p95, p95ReferenceOnly: s.p95ReferenceOnly, minMs: s.min, maxMs: s.max,
        split: groups.length > 1,
        groups: groups.map((g) => ({ n: g.n, share: g.share, medianMs: g.median, minMs: g.min, maxMs: g.max })),
      });
    }
    const rows = rowsByCell.get(key(c.cohort, c.path, c.state)) ?? [];
    bytes.push({
      cohort: c.cohort, path: c.path, state: c.state,
      contentBytes: summarizeBytes(rows.flatMap((r) => (r.contentBytes === null ? [] : [r.contentBytes]))),
      responseBytes: summarizeBytes(rows.flatMap((r) => (r.responseBytes === null ? [] : [r.responseBytes]))),
    });
  }

  const dominance: DominanceResult[] = [];
  for (const cohort of cohorts) {
    const paths = pathsOf(cohort);
    for (const state of states) {
      for (const metric of rules.metrics) {
        for (let i = 0; i < paths.length; i++) {
          for (let j = i + 1; j < paths.length; j++) {
            const a = sortedValues(cohort, paths[i]!, state, metric);
            const b = sortedValues(cohort, paths[j]!, state, metric);
            if (a.length === 0 || b.length === 0) continue;
            dominance.push({ cohort, state, metric, a: paths[i]!, b: paths[j]!, nA: a.length, nB: b.length, result: dominanceSorted(a, b) });
          }
        }
      }
    }
  }

  const comparisons = resolveComparisons(rules.comparisons, allPaths);
  const differences: DifferenceResult[] = [];
  for (const cohort of cohorts) {
    const paths = pathsOf(cohort);
    for (const cmp of comparisons) {
      if (!paths.includes(cmp.a) || !paths.includes(cmp.b)) continue;
      for (const state of states) {
        for (const metric of rules.metrics) {
          const rounds = pairRounds(rowsByCell.get(key(cohort, cmp.a, state)) ?? [], rowsByCell.get(key(cohort, cmp.b, state)) ?? [], metricValue[metric]);
          const r = pairedRoundBootstrap(rounds, {
            resamples: rules.bootstrap.resamples,
            confidence: rules.bootstrap.confidence,
            seed: [rules.bootstrap.seed, cohort, state, metric, cmp.a, cmp.b].join('|'),
          });
          differences.push({
            cohort, state, metric, a: cmp.a, b: cmp.b, rounds: r.rounds,
            observedMs: r.observed, lowMs: r.low, highMs: r.high, resamples: r.resamples, confidence: r.confidence,
            detected: r.observed !== null && !r.containsZero,
          });
        }
      }
    }
  }

  return {
    format: analysisFormat,
    quantile: quantileDefinition,
    rules,
    phases: data.phases,
    cells,
    dominance,
    differences,
    bytes,
    failures: data.failures,
    preparation,
  };
}

function resolveComparisons(configured: Comparison[], paths: string[]): Comparison[] {
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
  return configured;
}

/** Values of two paths grouped by formal round, rounds ascending. */
function pairRounds(aRows: ValueRow[], bRows: ValueRow[], pick: (r: ValueRow) => number | null): PairedRound[] {
  const byRound = new Map<number, { a: number[]; b: number[] }>();
  const add = (rows: ValueRow[], side: 'a' | 'b'): void => {
    for (const r of rows) {
      const v = pick(r);
      if (v === null || !Number.isFinite(v)) continue;
      let e = byRound.get(r.round);
      if (!e) byRound.set(r.round, (e = { a: [], b: [] }));
      e[side].push(v);
    }
  };
  add(aRows, 'a');
  add(bRows, 'b');
  return [...byRound.keys()].sort((x, y) => x - y).map((k) => byRound.get(k)!);
}
