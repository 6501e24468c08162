// Pure: every difference's rerun interval, and, with replicate runs (the
// same sample-stage key), the variance components over hosts → runs →
// sessions → rounds that stand behind it (replicate-analysis.ts). With no
// replicate the between-run figure is the host kind's (stats/host-kind-drift.ts),
// and the scope says so.
import { hostKindDrift, pooledRunLogVariance } from '../stats/host-kind-drift.js';
import { rerunInterval } from '../stats/rerun-interval.js';
import type { Comparison, MetricId } from '../config/analysis-rules.js';
import type { CellStatistics, DifferenceResult, LevelComponent, RerunScope } from './analysis-result.js';
import { analyzeReplicates } from './replicate-analysis.js';
import { hostEffects } from './host-effects.js';
import type { ReplicateRun } from './replicate-runs.js';
import type { ValueRow } from './sample-data.js';

export interface ReplicateInput {
  /** This run's host (replicate-runs.ts hostOf). */
  host: string;
  /** The archived runs with this run's sample-stage key (read-replicates.ts), this run left out. */
  runs: ReplicateRun[];
  /** The folder they were read from, for the scope line. */
  folder: string;
  /** Same-key runs of another host class, by their canary, left out of `runs` (same-class-replicates.ts). */
  otherClass?: string[];
}

export const thisRunId = 'this run';

export function thisRun(values: readonly ValueRow[], host: string): ReplicateRun {
  return {
    id: thisRunId,
    host,
    rows: values.map((r) => ({
      cohort: r.cohort,
      path: r.path,
      state: r.state,
      session: r.session,
      round: r.round,
      readyMs: r.readyMs,
      completionMs: r.completionMs,
    })),
  };
}

const asLevels = (c: readonly { level: string }[]): LevelComponent[] => c as LevelComponent[];

export function withRerun(
  differences: readonly DifferenceResult[],
  cells: readonly CellStatistics[],
  values: readonly ValueRow[],
  comparisons: readonly Comparison[],
  metrics: readonly MetricId[],
  replicates: ReplicateInput | null,
): { differences: DifferenceResult[]; scope: RerunScope } {
  const confidence = differences[0]?.confidence ?? 0.95;
  const runs = replicates && replicates.runs.length ? [thisRun(values, replicates.host), ...replicates.runs] : null;
  const pooled = runs ? analyzeReplicates(runs, comparisons, metrics, confidence) : null;
  // the run component when the replicates estimate it; with one run per host, the host component holds it
  const measured = pooled ? (pooled.runLogVariance ?? pooled.hostLogVariance) : null;
  const runLogVariance = measured !== null ? pooledRunLogVariance(measured, pooled!.driftDegreesOfFreedom) : hostKindDrift.runLogVariance;
  const measuredRatio = measured !== null ? (pooled!.ratioRunLogVariance ?? pooled!.ratioHostLogVariance ?? 0) : null;
  const ratioRunLogVariance =
    measuredRatio !== null
      ? pooledRunLogVariance(measuredRatio, pooled!.driftDegreesOfFreedom, { ...hostKindDrift, runLogVariance: hostKindDrift.ratioRunLogVariance })
      : hostKindDrift.ratioRunLogVariance;
  const scope: RerunScope = {
    source: measured !== null ? 'replicates' : 'host kind',
    runLogVariance,
    measuredRunLogVariance: measured,
    ratioRunLogVariance,
    measuredRatioRunLogVariance: measuredRatio,
    driftDegreesOfFreedom: pooled?.driftDegreesOfFreedom ?? 0,
    figureSource:
      measured !== null
        ? `${runs!.length} same-key runs on ${pooled!.hosts} host${pooled!.hosts === 1 ? '' : 's'} (this and ${replicates!.runs.map((r) => r.id).join(', ')}), pooled with the host kind's figure (harness/stats/host-kind-drift.ts, docs/STATISTICS.md)`
        : hostKindDrift.source,
    intervalLevels: ['sessions', 'rounds'],
    rerunLevels: ['runs', 'sessions', 'rounds'],
    runs: pooled ? pooled.runs : [{ id: thisRunId, host: replicates?.host ?? 'unknown' }],
    hosts: pooled ? pooled.hosts : 1,
    hostLogVariance: pooled?.hostLogVariance ?? null,
    cells: pooled ? pooled.cells.map((c) => ({ ...c, components: asLevels(c.components) })) : [],
    hostEffects: runs ? hostEffects(runs) : [],
    ...(replicates?.otherClass?.length ? { otherClassRuns: replicates.otherClass } : {}),
  };
  const median = (cohort: string, path: string, state: string, metric: MetricId): number | null =>
    cells.find((c) => c.cohort === cohort && c.path === path && c.state === state && c.metric === metric)?.p50Ms ?? null;
  const out = differences.map((d): DifferenceResult => {
    const aMs = median(d.cohort, d.a, d.state, d.metric);
    const bMs = median(d.cohort, d.b, d.state, d.metric);
    const r =
      aMs === null || bMs === null
        ? null
        : rerunInterval({
            observedMs: d.observedMs,
            lowMs: d.lowMs,
            highMs: d.highMs,
            confidence: d.confidence,
            aMs,
            bMs,
            runLogVariance,
            ratioRunLogVariance,
          });
    const rep = pooled?.differences.find((x) => x.cohort === d.cohort && x.state === d.state && x.metric === d.metric && x.a === d.a && x.b === d.b);
    return {
      ...d,
      rerun: r,
      ...(rep ? { replicates: { components: asLevels(rep.components), hostEstimates: rep.hostEstimates, crossHost: rep.crossHost } } : {}),
    };
  });
  return { differences: out, scope };
}
