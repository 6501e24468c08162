// Pure: what a measurement shows. Per command: median, P95, min and max of
// Completion (and of Ready when measured) over the runs that passed, hyperfine's
// mean/stddev/user/system for the exports, and the cluster rule's groups. Per
// pair of commands: the ratio of medians with a paired-round bootstrap interval
// (harness/stats/paired-bootstrap.ts on log values: the difference of log
// medians is the log of the ratio of medians, and a percentile interval maps
// through exp unchanged), and the difference of medians in ms with its own.
import { clusterSorted, defaultClusterRule, type ClusterGroup } from '../stats/cluster-rule.js';
import { pairedRoundBootstrap } from '../stats/paired-bootstrap.js';
import { quantileSorted } from '../stats/quantile.js';
import type { MeasuredCommand } from './command-list.js';
import type { Observation } from './observation.js';

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
  /** The command with the lower median Completion. */
  base: number;
  other: number;
  rounds: number;
  /** median(other) / median(base), with its interval. */
  ratio: Interval;
  /** median(other) - median(base) in ms, with its interval. */
  differenceMs: Interval;
  /** The ratio's interval excludes 1. */
  detected: boolean;
}

export interface BootstrapSettings {
  resamples: number;
  confidence: number;
  seed: string;
}

export interface MeasureSummary {
  commands: CommandSummary[];
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

/** Rounds of two commands' passed Completion values, for the paired bootstrap. */
function pairedRounds(formal: readonly Observation[], a: number, b: number, f: (v: number) => number): { a: number[]; b: number[] }[] {
  const byRound = new Map<number, { a: number[]; b: number[] }>();
  for (const o of formal) {
    if (!o.ok || o.completionMs === null || (o.command !== a && o.command !== b)) continue;
    const r = byRound.get(o.round) ?? { a: [], b: [] };
    (o.command === a ? r.a : r.b).push(f(o.completionMs));
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
): PairComparison {
  const mi = summaries[i]!.completionMs?.median ?? Infinity;
  const mj = summaries[j]!.completionMs?.median ?? Infinity;
  const [base, other] = mj < mi ? [j, i] : [i, j];
  const options = { resamples: settings.resamples, confidence: settings.confidence, seed: `${settings.seed}\u0000pair\u0000${base}\u0000${other}` };
  const logs = pairedRoundBootstrap(
    pairedRounds(formal, other, base, (v) => Math.log(Math.max(v, 1e-9))),
    options,
  );
  const diff = pairedRoundBootstrap(
    pairedRounds(formal, other, base, (v) => v),
    options,
  );
  const medBase = summaries[base]!.completionMs?.median ?? null;
  const medOther = summaries[other]!.completionMs?.median ?? null;
  const exp = (v: number | null): number | null => (v === null ? null : Math.exp(v));
  return {
    base,
    other,
    rounds: logs.rounds,
    ratio: { observed: medBase && medOther !== null ? medOther / medBase : null, low: exp(logs.low), high: exp(logs.high) },
    differenceMs: { observed: diff.observed, low: diff.low, high: diff.high },
    detected: logs.rounds > 1 && !logs.containsZero,
  };
}

export function summarizeMeasurement(commands: readonly MeasuredCommand[], observations: readonly Observation[], settings: BootstrapSettings): MeasureSummary {
  const formal = observations.filter((o) => o.phase === 'formal');
  const summaries = commands.map((c) => summarizeCommand(c, formal));
  const pairs: PairComparison[] = [];
  for (let i = 0; i < commands.length; i++) {
    for (let j = i + 1; j < commands.length; j++) pairs.push(comparePair(formal, summaries, i, j, settings));
  }
  return { commands: summaries, pairs, bootstrap: settings };
}
