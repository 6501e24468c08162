// Pure: the named findings of analysis.json that the default report states
// and only words (schemas/analysis-findings.schema.json):
//   stack: the stack rule, "the gap goes with the runtime stack": in a cohort
//     and state, two paths on one stack that read the image differently
//     (report.paths.<id>.pull: full or on-demand, where both say it) whose
//     Ready difference (near) is at most analysis.findings.stack_gap_share
//     of a detected Ready difference (far) between one of them and a path on
//     another stack. Per cohort and
//     state the first such pair in the order of the differences; the report
//     states the first in its own order of cohorts and states.
//   sessionsDisagree: every difference whose two-level interval excludes 0
//     while its between-session interval does not (the record's
//     findings.sessionsDisagreeInSize, stats/paired-comparison.ts), by key;
//     with sizeUncertain where every session still points the same way.
//   sources: the source report's findings judged (source-verdicts.ts).
// Stacks are report.paths.<id>.stack and the source reading report.source:
// the analyze stage reads those two keys for this.
import type { AnalysisResult } from './analysis-result.js';
import type { DifferenceKey } from './difference-record.js';
import type { AnalysisFindings, SessionsDisagreeFinding, StackFinding } from './finding-types.js';
import { judgeSources, sourceReference } from './source-verdicts.js';
import type { SourceReading } from '../config/source-reading.js';
import type { ReportOptions } from '../config/report-options.js';

export type { AnalysisFindings, SessionsDisagreeFinding, StackFinding } from './finding-types.js';

/** What the findings read of the pipeline: the stacks of report.paths, and experiment.reference as report.source reads it. */
export interface FindingsConfig {
  stacks: Record<string, string>;
  /** report.paths.<id>.pull: full or on-demand, where said. */
  pulls?: Record<string, string>;
  reference: unknown;
  source: SourceReading;
}

/** report.paths.<id>.stack, experiment.reference and report.source of a pipeline config. */
export function findingsConfig(config: { experiment: { reference?: unknown }; reportOptions: Pick<ReportOptions, 'paths' | 'source'> }): FindingsConfig {
  const stacks = Object.fromEntries(Object.entries(config.reportOptions.paths).flatMap(([id, p]) => (p.stack !== null ? [[id, p.stack]] : [])));
  const pulls = Object.fromEntries(Object.entries(config.reportOptions.paths).flatMap(([id, p]) => (p.pull ? [[id, p.pull]] : [])));
  return { stacks, pulls, reference: config.experiment.reference, source: config.reportOptions.source };
}

const sorted = (items: Iterable<string>): string[] => [...new Set(items)].sort();

export function stackFindings(
  a: Pick<AnalysisResult, 'differences'>,
  stacks: Record<string, string>,
  threshold: number,
  pulls: Record<string, string> = {},
): StackFinding[] {
  const stackOf = (p: string): string | null => stacks[p] ?? null;
  // "not with how the image is read" needs two ways of reading it: where both paths say how, they must differ
  const readDiffers = (d: DifferenceKey): boolean => !pulls[d.a] || !pulls[d.b] || pulls[d.a] !== pulls[d.b];
  const out: StackFinding[] = [];
  const key = (d: DifferenceKey): DifferenceKey => ({ cohort: d.cohort, state: d.state, metric: d.metric, a: d.a, b: d.b });
  for (const cohort of sorted(a.differences.map((d) => d.cohort))) {
    for (const state of sorted(a.differences.map((d) => d.state))) {
      const diffs = a.differences.filter((d) => d.cohort === cohort && d.state === state && d.metric === 'ready' && d.observedMs !== null && d.lowMs !== null);
      out.push(...firstGap(diffs));
    }
  }
  return out;

  function firstGap(diffs: AnalysisResult['differences']): StackFinding[] {
    for (const near of diffs.filter((d) => stackOf(d.a) !== null && stackOf(d.a) === stackOf(d.b) && readDiffers(d))) {
      for (const far of diffs.filter((d) => d !== near && (d.a === near.b || d.b === near.b) && stackOf(d.a) !== stackOf(d.b))) {
        if (!far.detected || Math.abs(near.observedMs!) > threshold * Math.abs(far.observedMs!)) continue;
        const other = far.a === near.b ? far.b : far.a;
        return [
          {
            finding: 'gap-goes-with-stack',
            cohort: near.cohort,
            state: near.state,
            near: key(near),
            far: key(far),
            stack: stackOf(near.a)!,
            other,
            otherStack: stackOf(other),
            otherSlower: (far.a === other ? far.observedMs! : -far.observedMs!) > 0,
            nearShare: Math.abs(near.observedMs!) / Math.abs(far.observedMs!),
            threshold,
          },
        ];
      }
    }
    return [];
  }
}

export function sessionsDisagreeFindings(a: Pick<AnalysisResult, 'differences'>): SessionsDisagreeFinding[] {
  return a.differences
    .filter((d) => d.findings.sessionsDisagreeInSize)
    .map((d) => ({
      finding: 'sessions-disagree-in-size',
      cohort: d.cohort,
      state: d.state,
      metric: d.metric,
      a: d.a,
      b: d.b,
      sizeUncertain: d.findings.sizeUncertain,
    }));
}

/** The analysis with its named findings. */
export function withFindings<T extends Omit<AnalysisResult, 'findings'>>(a: T, config: FindingsConfig): T & { findings: AnalysisFindings } {
  return {
    ...a,
    findings: {
      stack: stackFindings(a, config.stacks, a.rules.findings.stackGapShare, config.pulls ?? {}),
      sessionsDisagree: sessionsDisagreeFindings(a),
      sources: judgeSources(sourceReference(config.reference, config.source), a),
    },
  };
}
