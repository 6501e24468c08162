// The `analysis:` section of pipeline.yaml as the analysis code sees it.
// schemas/analysis.schema.json is the source of truth for keys and defaults;
// the validator applies them, and analysisRules applies them again so the pure
// code and the tests can start from a partial section.
import { UserError } from '../errors.js';
import { defaultClusterRule, type ClusterRule } from '../stats/cluster-rule.js';
import { defaultPracticalMargin, practicalMargin, type PracticalMargin } from './practical-margin.js';
import { comparisonFactors, levelWord, type ComparisonFactor } from './comparison-factors.js';

export type MetricId = 'ready' | 'completion';
export const metricIds: readonly MetricId[] = ['ready', 'completion'];

export interface Comparison {
  a: string;
  b: string;
  /** Absent: the arm (a and b are paths). */
  factor?: 'unit' | 'condition';
}

export interface AnalysisRules {
  metrics: MetricId[];
  /** P95 is reference-only in cells with fewer observations than this. */
  p95ReferenceBelowN: number;
  clusters: ClusterRule;
  bootstrap: { resamples: number; confidence: number; seed: string };
  /** Empty: every pair of paths found in the samples, alphabetical, a before b. */
  comparisons: Comparison[];
  /** When a cell is flagged "order effect": the size a position or predecessor ratio must reach, and the launches a predecessor group needs. */
  carryover: { minRatio: number; minGroupN: number };
  /** The next run's recommended design: target half width (share of the mean) and a session's start-up cost. */
  /** sessionStartS null: measured from the run's launches (analysis/session-costs.ts), defaultSessionStartS where it cannot be. */
  nextRun: { relativeHalfWidth: number; sessionStartS: number | null };
  /** analysis.practical: the margin of the verdict "equivalent" (comparison-verdict.ts). */
  practical: PracticalMargin;
  /** analysis.findings: the thresholds of the named findings the report states (analysis-findings.ts). */
  findings: { stackGapShare: number };
}

/** The key of pipeline.yaml each typed field is read from: a stage that declares that key (or its section) may read the field (engine/declared-config.ts). */
export const analysisRuleKeys: Readonly<Record<keyof AnalysisRules, string>> = {
  metrics: 'analysis.metrics',
  p95ReferenceBelowN: 'analysis.p95_reference_below_n',
  clusters: 'analysis.clusters',
  bootstrap: 'analysis.bootstrap',
  comparisons: 'analysis.comparisons',
  carryover: 'analysis.carryover',
  nextRun: 'analysis.next_run',
  practical: 'analysis.practical',
  findings: 'analysis.findings',
};

/** The session start the next-run plan assumes when neither the config nor the run's start times give one, seconds. */
export const defaultSessionStartS = 60;

export const defaultAnalysisRules: AnalysisRules = {
  metrics: ['ready', 'completion'],
  p95ReferenceBelowN: 100,
  clusters: defaultClusterRule,
  bootstrap: { resamples: 5000, confidence: 0.95, seed: 'benchgraph' },
  comparisons: [],
  carryover: { minRatio: 1.1, minGroupN: 3 },
  nextRun: { relativeHalfWidth: 0.05, sessionStartS: null },
  practical: defaultPracticalMargin,
  findings: { stackGapShare: 0.25 },
};

type Section = Record<string, unknown>;

function obj(value: unknown): Section {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Section) : {};
}

function num(section: Section, key: string, fallback: number, where: string, min: number, max: number, integer = false): number {
  const v = section[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new UserError(`must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(v)}`, { key: `${where}.${key}` });
  }
  return v;
}

export function analysisRules(sectionIn: unknown): AnalysisRules {
  const section = obj(sectionIn);
  const clusters = obj(section['clusters']);
  const bootstrap = obj(section['bootstrap']);
  const nextRun = obj(section['next_run']);
  const carryover = obj(section['carryover']);
  const metrics = (section['metrics'] as unknown[] | undefined) ?? defaultAnalysisRules.metrics;
  for (const m of metrics) {
    if (!metricIds.includes(m as MetricId)) {
      throw new UserError(`unknown metric ${JSON.stringify(m)}`, { key: 'analysis.metrics' }, `use ${metricIds.join(' or ')}`);
    }
  }
  const comparisons = ((section['comparisons'] as unknown[] | undefined) ?? []).map((c, i): Comparison => {
    const o = obj(c);
    const factor = o['factor'] ?? 'arm';
    if (!comparisonFactors.includes(factor as ComparisonFactor)) {
      throw new UserError(
        `unknown factor ${JSON.stringify(factor)}`,
        { key: `analysis.comparisons[${i}].factor` },
        `use one of: ${comparisonFactors.join(', ')}`,
      );
    }
    if (typeof o['a'] !== 'string' || typeof o['b'] !== 'string' || o['a'] === o['b']) {
      throw new UserError(
        `a comparison needs two different ${levelWord[factor as ComparisonFactor]} ids a and b`,
        { key: `analysis.comparisons[${i}]` },
        'e.g. {a: docker, b: lazy}',
      );
    }
    return factor === 'arm' ? { a: o['a'], b: o['b'] } : { a: o['a'], b: o['b'], factor: factor as 'unit' | 'condition' };
  });
  const seed = bootstrap['seed'] ?? defaultAnalysisRules.bootstrap.seed;
  return {
    metrics: metricIds.filter((m) => metrics.includes(m)),
    p95ReferenceBelowN: num(section, 'p95_reference_below_n', defaultAnalysisRules.p95ReferenceBelowN, 'analysis', 0, 1e9, true),
    clusters: {
      minGapRatio: num(clusters, 'min_gap_ratio', defaultClusterRule.minGapRatio, 'analysis.clusters', 0, 1e9),
      minGroupShare: num(clusters, 'min_group_share', defaultClusterRule.minGroupShare, 'analysis.clusters', 0, 0.5),
      minGroupN: num(clusters, 'min_group_n', defaultClusterRule.minGroupN ?? 2, 'analysis.clusters', 2, 1e6, true),
      maxGroups: num(clusters, 'max_groups', defaultClusterRule.maxGroups, 'analysis.clusters', 1, 10, true),
    },
    bootstrap: {
      resamples: num(bootstrap, 'resamples', defaultAnalysisRules.bootstrap.resamples, 'analysis.bootstrap', 1, 1e7, true),
      confidence: num(bootstrap, 'confidence', defaultAnalysisRules.bootstrap.confidence, 'analysis.bootstrap', 0.5, 0.999),
      seed: String(seed),
    },
    comparisons,
    carryover: {
      minRatio: num(carryover, 'min_ratio', defaultAnalysisRules.carryover.minRatio, 'analysis.carryover', 1, 1e6),
      minGroupN: num(carryover, 'min_group_n', defaultAnalysisRules.carryover.minGroupN, 'analysis.carryover', 1, 1e6, true),
    },
    nextRun: {
      relativeHalfWidth: num(nextRun, 'relative_half_width', defaultAnalysisRules.nextRun.relativeHalfWidth, 'analysis.next_run', 1e-6, 1),
      sessionStartS: nextRun['session_start_s'] === undefined ? null : num(nextRun, 'session_start_s', 0, 'analysis.next_run', 0, 1e7),
    },
    practical: practicalMargin(section['practical']),
    findings: {
      stackGapShare: num(obj(section['findings']), 'stack_gap_share', defaultAnalysisRules.findings.stackGapShare, 'analysis.findings', 0, 1),
    },
  };
}
