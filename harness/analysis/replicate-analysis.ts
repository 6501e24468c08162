// Pure: replicate runs (replicate-runs.ts) pooled as hosts → runs → sessions
// → rounds. Per cell and metric the variance components of the log launch
// times; per difference a − b those of the per-round differences (ms), each
// host's estimate (median a − median b over its runs' launches) and, with
// two hosts or more, the cross-host range. The pooled between-run variance
// of a cell's log launch time (the mean over cells of their run components)
// is what the rerun interval (stats/rerun-interval.ts) takes as its
// between-run figure. Estimator: REML, stats/nested-variance-components.ts.
import { median } from '../stats/quantile.js';
import { nestedVarianceComponents, type NestedComponent, type NestedValue } from '../stats/nested-variance-components.js';
import type { Comparison, MetricId } from '../config/analysis-rules.js';
import type { ReplicateRow, ReplicateRun } from './replicate-runs.js';

export const replicateLevels = ['hosts', 'runs', 'sessions'] as const;
export const residualLevel = 'rounds';

export interface ReplicateCell {
  cohort: string;
  path: string;
  state: string;
  metric: MetricId;
  /** Of the natural log of the launch time. */
  components: NestedComponent[];
}

export interface ReplicateDifference {
  cohort: string;
  state: string;
  metric: MetricId;
  a: string;
  b: string;
  /** Of the per-round difference a − b in ms. */
  components: NestedComponent[];
  /** Of the per-round log ratio log a − log b (rounds with both values positive). */
  ratioComponents: NestedComponent[];
  hostEstimates: { host: string; runs: number; observedMs: number }[];
  /** Smallest and largest host estimate; null with fewer than 2 hosts. */
  crossHost: { lowMs: number; highMs: number } | null;
}

export interface ReplicateAnalysis {
  runs: { id: string; host: string }[];
  hosts: number;
  cells: ReplicateCell[];
  differences: ReplicateDifference[];
  /** Mean over cells of the between-run variance of the log launch time; null when no cell has two runs on one host. */
  runLogVariance: number | null;
  /** Mean over cells of the between-host variance of the log launch time; null with fewer than 2 hosts. */
  hostLogVariance: number | null;
  /** Mean over differences of the between-run variance of the per-round log ratio; null as runLogVariance. */
  ratioRunLogVariance: number | null;
  /** Mean over differences of its between-host variance; null with fewer than 2 hosts. */
  ratioHostLogVariance: number | null;
  /** Between-run contrasts behind runLogVariance (runs − hosts), or, with one run per host, behind hostLogVariance (hosts − 1). */
  driftDegreesOfFreedom: number;
}

const metricOf: Record<MetricId, (r: ReplicateRow) => number | null> = { ready: (r) => r.readyMs, completion: (r) => r.completionMs };

function mean(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((s, v) => s + v, 0) / xs.length : null;
}

/** The run ids as units: the host, then `host/run`, then the session. */
const unitsOf = (run: ReplicateRun, session: number): string[] => [run.host, run.id, String(session)];

export function analyzeReplicates(
  runs: readonly ReplicateRun[],
  comparisons: readonly Comparison[],
  metrics: readonly MetricId[],
  confidence: number,
): ReplicateAnalysis {
  const cellKeys = new Map<string, { cohort: string; path: string; state: string }>();
  for (const run of runs)
    for (const r of run.rows) cellKeys.set([r.cohort, r.path, r.state].join('\u0000'), { cohort: r.cohort, path: r.path, state: r.state });
  const cellList = [...cellKeys.values()].sort((x, y) => x.cohort.localeCompare(y.cohort) || x.path.localeCompare(y.path) || x.state.localeCompare(y.state));
  const hosts = [...new Set(runs.map((r) => r.host))];

  const cells: ReplicateCell[] = [];
  for (const c of cellList) {
    for (const metric of metrics) {
      const values: NestedValue[] = [];
      for (const run of runs) {
        for (const r of run.rows) {
          if (r.cohort !== c.cohort || r.path !== c.path || r.state !== c.state) continue;
          const v = metricOf[metric](r);
          if (v !== null && v > 0) values.push({ units: unitsOf(run, r.session), value: Math.log(v) });
        }
      }
      cells.push({ ...c, metric, components: nestedVarianceComponents(values, replicateLevels, residualLevel, confidence).components });
    }
  }

  const differences: ReplicateDifference[] = [];
  const cohorts = [...new Set(cellList.map((c) => c.cohort))].sort();
  const states = [...new Set(cellList.map((c) => c.state))].sort();
  for (const cohort of cohorts) {
    const paths = new Set(cellList.filter((c) => c.cohort === cohort).map((c) => c.path));
    for (const cmp of comparisons) {
      if (!paths.has(cmp.a) || !paths.has(cmp.b)) continue;
      for (const state of states) {
        for (const metric of metrics) {
          const values: NestedValue[] = [];
          const ratios: NestedValue[] = [];
          const byHost = new Map<string, { runs: number; a: number[]; b: number[] }>();
          for (const run of runs) {
            const rounds = new Map<string, { session: number; a: number[]; b: number[] }>();
            const host = byHost.get(run.host) ?? byHost.set(run.host, { runs: 0, a: [], b: [] }).get(run.host)!;
            host.runs++;
            for (const r of run.rows) {
              if (r.cohort !== cohort || r.state !== state || (r.path !== cmp.a && r.path !== cmp.b)) continue;
              const v = metricOf[metric](r);
              if (v === null) continue;
              const k = `${r.session}/${r.round}`;
              const round = rounds.get(k) ?? rounds.set(k, { session: r.session, a: [], b: [] }).get(k)!;
              (r.path === cmp.a ? round.a : round.b).push(v);
              (r.path === cmp.a ? host.a : host.b).push(v);
            }
            for (const round of rounds.values()) {
              if (!round.a.length || !round.b.length) continue;
              const [ma, mb] = [mean(round.a)!, mean(round.b)!];
              values.push({ units: unitsOf(run, round.session), value: ma - mb });
              if (ma > 0 && mb > 0) ratios.push({ units: unitsOf(run, round.session), value: Math.log(ma) - Math.log(mb) });
            }
          }
          const hostEstimates = [...byHost.entries()]
            .filter(([, h]) => h.a.length && h.b.length)
            .map(([host, h]) => ({ host, runs: h.runs, observedMs: median(h.a) - median(h.b) }));
          const estimates = hostEstimates.map((h) => h.observedMs);
          differences.push({
            cohort,
            state,
            metric,
            a: cmp.a,
            b: cmp.b,
            components: nestedVarianceComponents(values, replicateLevels, residualLevel, confidence).components,
            ratioComponents: nestedVarianceComponents(ratios, replicateLevels, residualLevel, confidence).components,
            hostEstimates,
            crossHost: estimates.length >= 2 ? { lowMs: Math.min(...estimates), highMs: Math.max(...estimates) } : null,
          });
        }
      }
    }
  }

  const pooledOver = (items: readonly { components: NestedComponent[] }[], level: string): number | null =>
    mean(items.flatMap((c) => c.components.filter((x) => x.level === level && x.variance !== null).map((x) => x.variance!)));
  const pooled = (level: string): number | null => pooledOver(cells, level);
  const ratioPooled = (level: string): number | null =>
    pooledOver(
      differences.map((d) => ({ components: d.ratioComponents })),
      level,
    );
  return {
    runs: runs.map((r) => ({ id: r.id, host: r.host })),
    hosts: hosts.length,
    cells,
    differences,
    runLogVariance: pooled('runs'),
    hostLogVariance: hosts.length >= 2 ? pooled('hosts') : null,
    ratioRunLogVariance: ratioPooled('runs'),
    ratioHostLogVariance: hosts.length >= 2 ? ratioPooled('hosts') : null,
    driftDegreesOfFreedom: pooled('runs') !== null ? runs.length - hosts.length : hosts.length - 1,
  };
}
