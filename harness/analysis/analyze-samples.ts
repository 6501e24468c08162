// The pure analysis: from grouped sample data and the rules to analysis.json.
import { canaryStatistics, type CanaryResult } from './canary-statistics.js';
import { summarizeBytes } from '../stats/byte-summary.js';
import { summarizeSorted } from '../stats/cell-summary.js';
import { clusterSorted } from '../stats/cluster-rule.js';
import { dominanceSorted } from '../stats/dominance.js';
import { sessionSpread, varianceComponents, type CellValue } from '../stats/variance-components.js';
import { confirmationCost, defaultPlanLimits, planNextRun, type PlanCell } from '../stats/next-run-plan.js';
import { balancedRoundsMultiple, measuredSessionCosts } from './session-costs.js';
import { defaultSessionStartS } from '../config/analysis-rules.js';
import { sortedAscending } from '../stats/sorted-values.js';
import { median } from '../stats/quantile.js';
import { analysisParts, type AnalysisParts } from './analysis-parts.js';
import { phaseSpans } from './phase-spans.js';
import { cellKey, metricValue, resolveComparisons, rowsByCell } from './difference-results.js';
import { factorDifferences } from './factor-differences.js';
import { withConfirmation } from './confirmation-verdicts.js';
import { withVerdicts } from './difference-record.js';
import { withRerun, type ReplicateInput } from './rerun-results.js';
import { confirmVisits, undecidedDifferences } from './undecided-differences.js';
import type { AnalysisRules, Comparison, MetricId } from '../config/analysis-rules.js';
import {
  analysisFormat,
  quantileDefinition,
  type AnalysisResult,
  type BytesResult,
  type ConfirmationInput,
  type CellStatistics,
  type DifferenceResult,
  type DominanceResult,
  type NextRunRecommendation,
  type OrderEffectFinding,
  type PreparationCost,
} from './analysis-result.js';
import type { SampleData } from './sample-data.js';

const key = cellKey;

function uniqueSorted(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/**
 * confirmation: the sample stage's confirm.json (design.confirm), when it
 * ran; each difference then also carries its verdict on the planned sessions
 * alone and with the confirmation session (confirmation-verdicts.ts).
 * replicates: archived runs with this run's sample-stage key (and this run's
 * host); they set the between-run figure of every rerun interval
 * (rerun-results.ts). Without any, the host kind's figure is assumed.
 */
export function analyzeSamples(
  data: SampleData,
  rules: AnalysisRules,
  preparation: PreparationCost[] | null,
  confirmation: ConfirmationInput | null = null,
  replicates: ReplicateInput | null = null,
): AnalysisResult {
  return analyzeWithParts(data, rules, preparation, confirmation, analysisParts(data, rules, confirmation), replicates);
}

/** analyzeSamples() with its bootstraps already computed (analysis-parts.ts; in worker threads: analyze-in-workers.ts). */
export function analyzeWithParts(
  data: SampleData,
  rules: AnalysisRules,
  preparation: PreparationCost[] | null,
  confirmation: ConfirmationInput | null,
  parts: AnalysisParts,
  replicates: ReplicateInput | null = null,
): AnalysisResult {
  const byCell = rowsByCell(data.values);
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
      for (const r of byCell.get(key(cohort, path, state)) ?? []) {
        const v = metricValue[metric](r);
        if (v !== null && Number.isFinite(v)) values.push(v);
      }
      sortedCache.set(k, (s = sortedAscending(values)));
    }
    return s;
  };

  const cellValues = (cohort: string, path: string, state: string, metric: MetricId): CellValue[] => {
    const out: CellValue[] = [];
    for (const r of byCell.get(key(cohort, path, state)) ?? []) {
      const v = metricValue[metric](r);
      if (v !== null && Number.isFinite(v)) out.push({ session: r.session, round: r.round, value: v });
    }
    return out;
  };

  const cells: CellStatistics[] = [];
  const planCells: PlanCell[] = [];
  const bytes: BytesResult[] = [];
  let task = 0;
  for (const c of data.cells) {
    for (const metric of rules.metrics) {
      const sorted = sortedValues(c.cohort, c.path, c.state, metric);
      const s = summarizeSorted(sorted, rules.p95ReferenceBelowN);
      const groups = clusterSorted(sorted, rules.clusters);
      const values = cellValues(c.cohort, c.path, c.state, metric);
      const spread = sessionSpread(values);
      const components = varianceComponents(values);
      const carryover = parts.carryover[task++]!;
      if (metric === 'ready') planCells.push({ id: `${c.cohort}/${c.path}/${c.state}`, components });
      cells.push({
        cohort: c.cohort,
        path: c.path,
        state: c.state,
        metric,
        launches: c.launches,
        failures: c.failures,
        n: s.n,
        p50Ms: s.p50,
        p95Ms: s.p95,
        p95ReferenceOnly: s.p95ReferenceOnly,
        minMs: s.min,
        maxMs: s.max,
        split: groups.length > 1,
        groups: groups.map((g) => ({ n: g.n, share: g.share, medianMs: g.median, minMs: g.min, maxMs: g.max })),
        sessions: spread.medians.map((m) => ({ session: m.session, n: m.values, p50Ms: m.median })),
        sessionSpread: spread.medians.length > 1 ? spread.spreadRatio : null,
        variance: { betweenSessions: components.betweenVar, withinSessions: components.withinVar, dominant: components.dominant },
        ...carryover,
      });
    }
    const rows = byCell.get(key(c.cohort, c.path, c.state)) ?? [];
    bytes.push({
      cohort: c.cohort,
      path: c.path,
      state: c.state,
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
  const all = parts.differences;
  // With a confirmation session, every difference is judged again on the planned sessions alone.
  const planned = parts.planned ?? all;
  const rerun = withRerun(withConfirmation(all, planned, confirmation), cells, data.values, comparisons, rules.metrics, replicates);
  const differences = withVerdicts(rerun.differences, cells, rules.practical);
  const medianMs = new Map(cells.map((c) => [cellKey(c.cohort, c.path, c.state, c.metric), c.p50Ms]));
  const alongFactors = rules.comparisons.some((c) => c.factor)
    ? { factorDifferences: factorDifferences(data, rules, (c) => medianMs.get(cellKey(c.cohort, c.path, c.state, c.metric)) ?? null) }
    : {};

  return {
    format: analysisFormat,
    quantile: quantileDefinition,
    rules,
    phases: data.phases,
    cells,
    dominance,
    differences,
    ...alongFactors,
    orderEffects: cells.flatMap((c): OrderEffectFinding[] =>
      c.orderEffect
        ? [
            {
              finding: 'order-effect',
              cohort: c.cohort,
              path: c.path,
              state: c.state,
              metric: c.metric,
              by: [...(c.position?.flagged ? ['position' as const] : []), ...(c.predecessor?.flagged ? ['predecessor' as const] : [])],
            },
          ]
        : [],
    ),
    bytes,
    failures: data.failures,
    preparation,
    phaseMarks: phaseMarkMedians(data),
    ...phaseSpans(data, rules, comparisons),
    nextRun: recommendNextRun(planCells, data, rules, planned),
    ...(confirmation ? { confirmation } : {}),
    rerun: rerun.scope,
    ...canaryOf(data, rules),
  };
}

/** analysis.json `canary`, present only when the samples hold canary launches. */
function canaryOf(data: SampleData, rules: AnalysisRules): { canary?: CanaryResult } {
  const c = canaryStatistics(data.canary ?? [], rules.bootstrap);
  return c ? { canary: c } : {};
}

/** Median spawn-to-mark time of each phase mark in each cell, marks in their order of appearance. */
function phaseMarkMedians(data: SampleData): AnalysisResult['phaseMarks'] {
  const groups = new Map<string, { cohort: string; path: string; state: string; name: string; seq: number; values: number[] }>();
  for (const m of data.marks) {
    const k = key(m.cohort, m.path, m.state, m.name);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { cohort: m.cohort, path: m.path, state: m.state, name: m.name, seq: m.seq, values: [] }));
    g.values.push(m.atMs);
  }
  return [...groups.values()]
    .sort((x, y) => x.cohort.localeCompare(y.cohort) || x.path.localeCompare(y.path) || x.state.localeCompare(y.state) || x.seq - y.seq)
    .map((g) => ({ cohort: g.cohort, path: g.path, state: g.state, name: g.name, n: g.values.length, p50Ms: median(g.values) }));
}

/**
 * Sessions x rounds for the next run at least launch time (a round: every
 * cohort, path and state once; a launch costs the mean Completion measured).
 */
function recommendNextRun(cells: PlanCell[], data: SampleData, rules: AnalysisRules, planned: readonly DifferenceResult[]): NextRunRecommendation {
  const completions = data.values.flatMap((r) => (r.completionMs === null ? [] : [r.completionMs]));
  const measured = measuredSessionCosts(data.sessionTimes ?? []);
  // A launch costs its wall time in the session (settle and teardown included) when the start times tell it, else its mean Completion.
  const launchMs = measured.launchWallMs ?? (completions.length ? completions.reduce((s, v) => s + v, 0) / completions.length : 0);
  const sessionStartS = rules.nextRun.sessionStartS ?? (measured.preFormalMs !== null ? measured.preFormalMs / 1000 : defaultSessionStartS);
  const costSource = rules.nextRun.sessionStartS !== null ? 'configured' : measured.preFormalMs !== null ? 'measured' : 'default';
  const launchesPerRound = data.cells.length;
  const target = { relativeHalfWidth: rules.nextRun.relativeHalfWidth, confidence: rules.bootstrap.confidence };
  const costs = { sessionStartMs: sessionStartS * 1000, launchMs, launchesPerRound };
  const roundsMultiple = balancedRoundsMultiple(Object.values(data.positions));
  const plan = planNextRun(cells, costs, target, { ...defaultPlanLimits, roundsMultiple });
  // design.confirm's cost: one more session over the cells of the differences undecided on the planned sessions.
  const undecided = undecidedDifferences(planned);
  const states = new Set(data.cells.map((c) => c.state)).size;
  const confirmCells = confirmVisits(undecided).reduce((n, v) => n + v.paths.length * states, 0);
  const sessionsRun = new Set(data.values.map((r) => r.session)).size;
  const roundsRun = sessionsRun ? Math.round(Math.max(0, ...data.cells.map((c) => c.launches)) / sessionsRun) : 0;
  const confirmRounds = plan.reachable ? plan.rounds : roundsRun;
  const confirm = undecided.length ? confirmationCost(confirmCells, confirmRounds, costs) : null;
  return {
    reachable: plan.reachable,
    sessions: plan.sessions,
    rounds: plan.rounds,
    launches: plan.launches,
    costS: plan.costMs / 1000,
    target: {
      ...target,
      sessionStartS,
      sessionStartSource: costSource,
      launchMs,
      launchMsSource: measured.launchWallMs !== null ? 'measured' : 'completion',
      launchesPerRound,
      roundsMultiple,
    },
    cells: plan.cells,
    unplanned: plan.unplanned,
    confirmation: confirm
      ? { undecided: undecided.length, cells: confirmCells, rounds: confirmRounds, launches: confirm.launches, costS: confirm.costMs / 1000 }
      : null,
  };
}
