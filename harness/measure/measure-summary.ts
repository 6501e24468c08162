// Pure: what a measurement shows. Per command: median, P95, min and max of
// Completion (and of Ready when measured) over the runs that passed, hyperfine's
// mean/stddev/user/system for the exports, and the cluster rule's groups. Per
// pair of commands: the ratio of medians with a paired-round bootstrap interval
// (harness/stats/paired-bootstrap.ts on log values: the difference of log
// medians is the log of the ratio of medians, and a percentile interval maps
// through exp unchanged), and the difference of medians in ms with its own,
// of Ready when it is measured (--marker, --ready first-line) and of
// Completion otherwise, and the verdict of the ratio's interval against the
// practical margin (analysis/comparison-verdict.ts).
import { clusterSorted, defaultClusterRule, type ClusterGroup } from '../stats/cluster-rule.js';
import { pairedRoundBootstrap } from '../stats/paired-bootstrap.js';
import { quantileSorted } from '../stats/quantile.js';
import { comparisonVerdict, type ComparisonVerdict } from '../analysis/comparison-verdict.js';
import type { MeasuredCommand } from './command-list.js';
import type { Observation } from './observation.js';
import { metricOf, type MeasureMetric } from './until-decided.js';
import { burstLines, type BurstLine } from './burst-lines.js';

export interface Spread {
  median: number;
  p95: number;
  min: number;
  max: number;
}

export interface CommandSummary {
  index: number;
  name: string;
  runs: number;
  failures: number;
  firstFailure: string | null;
  completionMs: Spread | null;
  /** Null when Ready was not measured or never seen. */
  readyMs: Spread | null;
  meanMs: number | null;
  stddevMs: number | null;
  userMs: number | null;
  systemMs: number | null;
  /** Groups of Completion when the cluster rule splits them; empty otherwise. */
  clusters: ClusterGroup[];
}

export interface Interval {
  observed: number | null;
  low: number | null;
  high: number | null;
}

export interface PairComparison {
  /** The command with the lower median of the compared metric. */
  base: number;
  other: number;
  rounds: number;
  /** median(other) / median(base), with its interval. */
  ratio: Interval;
  /** median(other) - median(base) in ms, with its interval. */
  differenceMs: Interval;
  /** The ratio's interval excludes 1. */
  detected: boolean;
  /** Lower, higher, equivalent within the margin or undecided, from the ratio's interval. */
  verdict: ComparisonVerdict;
}

export interface BootstrapSettings {
  resamples: number;
  confidence: number;
  seed: string;
}

export interface CompareOptions {
  metric: MeasureMetric;
  /** Practical margin of "equivalent", relative (0.05 = +-5%). */
  marginRelative: number;
}

export const defaultCompareOptions: CompareOptions = { metric: 'completion', marginRelative: 0.05 };

export interface MeasureSummary {
  commands: CommandSummary[];
  /** --concurrency N (N > 1): each command's bursts (burst-lines.ts); absent otherwise. */
  bursts?: BurstLine[];
  /** What the pairs compare. */
  metric: MeasureMetric;
  pairs: PairComparison[];
  bootstrap: BootstrapSettings;
}

export function spreadOf(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return { median: quantileSorted(s, 0.5), p95: quantileSorted(s, 0.95), min: s[0]!, max: s[s.length - 1]! };
}

const mean = (v: readonly number[]): number | null => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null);

function stddev(v: readonly number[]): number | null {
  const m = mean(v);
  if (m === null || v.length < 2) return null;
  return Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1));
}

const present = (v: (number | null)[]): number[] => v.filter((x): x is number => x !== null);

export function summarizeCommand(command: MeasuredCommand, formal: readonly Observation[]): CommandSummary {
  const mine = formal.filter((o) => o.command === command.index);
  const passed = mine.filter((o) => o.ok);
  const completion = present(passed.map((o) => o.completionMs));
  const groups = clusterSorted(
    [...completion].sort((a, b) => a - b),
    defaultClusterRule,
  );
  return {
    index: command.index,
    name: command.name,
    runs: mine.length,
    failures: mine.length - passed.length,
    firstFailure: mine.find((o) => !o.ok)?.failureReason ?? null,
    completionMs: spreadOf(completion),
    readyMs: spreadOf(present(passed.map((o) => o.readyMs))),
    meanMs: mean(completion),
    stddevMs: stddev(completion),
    userMs: mean(present(passed.map((o) => o.userCpuMs))),
    systemMs: mean(present(passed.map((o) => o.sysCpuMs))),
    clusters: groups.length > 1 ? groups : [],
  };
}

/** Rounds of two commands' passed values of the metric, for the paired bootstrap. */
function pairedRounds(formal: readonly Observation[], a: number, b: number, metric: MeasureMetric, f: (v: number) => number): { a: number[]; b: number[] }[] {
  const byRound = new Map<number, { a: number[]; b: number[] }>();
  for (const o of formal) {
    const v = metricOf[metric](o);
    if (!o.ok || v === null || (o.command !== a && o.command !== b)) continue;
    const r = byRound.get(o.round) ?? { a: [], b: [] };
    (o.command === a ? r.a : r.b).push(f(v));
    byRound.set(o.round, r);
  }
  return [...byRound.keys()].sort((x, y) => x - y).map((k) => byRound.get(k)!);
}

export function comparePair(
  formal: readonly Observation[],
  summaries: readonly CommandSummary[],
  i: number,
  j: number,
  settings: BootstrapSettings,
  compare: CompareOptions = defaultCompareOptions,
): PairComparison {
  const medianOf = (k: number): number | null => (compare.metric === 'ready' ? summaries[k]!.readyMs : summaries[k]!.completionMs)?.median ?? null;
  const mi = medianOf(i) ?? Infinity;
  const mj = medianOf(j) ?? Infinity;
  const [base, other] = mj < mi ? [j, i] : [i, j];
  const options = { resamples: settings.resamples, confidence: settings.confidence, seed: `${settings.seed}\u0000pair\u0000${base}\u0000${other}` };
  const logs = pairedRoundBootstrap(
    pairedRounds(formal, other, base, compare.metric, (v) => Math.log(Math.max(v, 1e-9))),
    options,
  );
  const diff = pairedRoundBootstrap(
    pairedRounds(formal, other, base, compare.metric, (v) => v),
    options,
  );
  const medBase = medianOf(base);
  const medOther = medianOf(other);
  const exp = (v: number | null): number | null => (v === null ? null : Math.exp(v));
  const interval = logs.rounds > 1 && logs.low !== null && logs.high !== null ? { low: Math.expm1(logs.low), high: Math.expm1(logs.high) } : null;
  return {
    base,
    other,
    rounds: logs.rounds,
    ratio: { observed: medBase && medOther !== null ? medOther / medBase : null, low: exp(logs.low), high: exp(logs.high) },
    differenceMs: { observed: diff.observed, low: diff.low, high: diff.high },
    detected: logs.rounds > 1 && !logs.containsZero,
    verdict: comparisonVerdict(interval, compare.marginRelative),
  };
}

export function summarizeMeasurement(
  commands: readonly MeasuredCommand[],
  observations: readonly Observation[],
  settings: BootstrapSettings,
  options: CompareOptions = defaultCompareOptions,
  concurrency = 1,
): MeasureSummary {
  const formal = observations.filter((o) => o.phase === 'formal');
  const summaries = commands.map((c) => summarizeCommand(c, formal));
  const pairs: PairComparison[] = [];
  for (let i = 0; i < commands.length; i++) {
    for (let j = i + 1; j < commands.length; j++) pairs.push(comparePair(formal, summaries, i, j, settings, options));
  }
  const bursts = concurrency > 1 ? { bursts: burstLines(formal, commands.length, concurrency, options.metric) } : {};
  return { commands: summaries, metric: options.metric, pairs, bootstrap: settings, ...bursts };
}
