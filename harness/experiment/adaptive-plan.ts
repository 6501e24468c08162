// Pure: design.adaptive on the experiment model. Sessions are added one at a
// time, from min_sessions to max_sessions, until every comparison (every pair
// of arms of analysis.comparisons, or every pair, per unit and condition) is
// decided under the sequential rule (analysis/sequential-decision.ts: lower,
// higher or equivalent within +-margin, the band analysis.practical's, the
// wider of min_ratio_change and min_ms over b's median so far; one copy of
// each, the analysis's, issue 42) or the budget is spent: max_sessions, and
// optionally max_launches (formal launches) and max_minutes (sampling time, a
// next session priced at the pace so far), each checked before a session is
// added, so none is passed. A later session visits only the units of
// the comparisons still undecided, and in them only the arms those involve,
// as design.confirm does for the default experiment.
//
// A comparison's per-session value is the mean over the session's rounds of
// log a - log b of the metric column (both rows ok and positive), over the
// sessions in which both arms ran. Its decision is taken at the first look at
// which the rule stops, and kept: a later session that visits its arms for
// another comparison does not reopen it. Everything is recomputed from the
// journal's rows, so a run interrupted in an added session resumes at the same
// session with the same visits.
import { UserError } from '../errors.js';
import { defaultPracticalMargin } from '../config/practical-margin.js';
import type { AnalysisRules } from '../config/analysis-rules.js';
import { firstStoppingDecision, type SequentialDecision } from '../analysis/sequential-decision.js';
import { referenceMedian, sessionLogRatios, type LogRatioRow } from '../analysis/session-log-ratios.js';
import type { ConfirmVisit } from '../analysis/undecided-differences.js';
import { defaultSequentialPlan, lookPlan, type SequentialPlan } from '../stats/sequential-session-interval.js';

export interface AdaptiveDesign {
  minSessions: number;
  maxSessions: number;
  /** The sample column compared (e.g. completion_ms). */
  metric: string;
  /** Relative half width of "equivalent" (0.05 = +-5%). */
  marginRelative: number;
  /** Absolute half width in the metric's unit (ms), relative to b's median so far: the band is the wider of the two; 0 for none. */
  minMs: number;
  /** The pairs of arms decided (either order); null: every pair. */
  comparisons: { a: string; b: string }[] | null;
  /** Budget in formal launches: no session is added that would pass it; null: none. */
  maxLaunches: number | null;
  /** Budget in minutes of sampling: no session is added that would pass it by the pace so far; null: none. */
  maxMinutes: number | null;
  /** The boundaries spend alpha t^rho over the looks (1: linear; 3 keeps more for the last looks). */
  spendingRho: number;
}

/** What design.adaptive decides with besides its own keys: the analysis's margin and comparisons (one copy of each). */
export type AdaptiveRules = Pick<AnalysisRules, 'practical' | 'comparisons'>;

/**
 * design.adaptive with its defaults; null when the key is absent or false (off). The margin of "equivalent" is
 * analysis.practical and the pairs decided are analysis.comparisons' pairs of arms (none: every pair), so the
 * sampling stops by the rule the analysis words (issue 42); `rules` absent: their defaults.
 */
export function adaptiveDesign(section: unknown, rules?: AdaptiveRules): AdaptiveDesign | null {
  if (section === undefined || section === null || section === false) return null;
  const s = (typeof section === 'object' ? section : {}) as Record<string, unknown>;
  const practical = rules?.practical ?? defaultPracticalMargin;
  const arms = (rules?.comparisons ?? []).filter((c) => !c.factor);
  const num = (k: string, d: number): number => (typeof s[k] === 'number' ? (s[k] as number) : d);
  const optional = (k: string): number | null => (typeof s[k] === 'number' ? (s[k] as number) : null);
  const minSessions = num('min_sessions', defaultSequentialPlan.minSessions);
  const maxSessions = num('max_sessions', defaultSequentialPlan.maxSessions);
  if (maxSessions < minSessions) {
    throw new UserError(`is below min_sessions (${minSessions})`, { key: 'design.adaptive.max_sessions' }, `give at least ${minSessions}`);
  }
  return {
    minSessions,
    maxSessions,
    metric: typeof s['metric'] === 'string' ? (s['metric'] as string) : 'completion_ms',
    marginRelative: practical.relative,
    minMs: practical.absoluteMs,
    comparisons: arms.length ? arms.map((c) => ({ a: c.a, b: c.b })) : null,
    maxLaunches: optional('max_launches'),
    maxMinutes: optional('max_minutes'),
    spendingRho: num('spending_rho', 1),
  };
}

export function planOf(d: AdaptiveDesign): SequentialPlan {
  return lookPlan(d.minSessions, d.maxSessions, d.spendingRho);
}

/** The part of a sample row this plan reads. */
export type AdaptiveRow = LogRatioRow;

export interface AdaptiveComparison {
  cohort: string;
  state: string;
  a: string;
  b: string;
  /** The decision at the look it stopped, or at the last look so far. */
  decision: SequentialDecision;
  /** Sessions (with both arms) the decision rests on. */
  sessions: number;
}

/** Why no further session is added: every comparison decided, or which budget is spent. */
export type AdaptiveStop = 'decided' | 'max_sessions' | 'max_launches' | 'max_minutes';

export interface AdaptiveStep {
  comparisons: AdaptiveComparison[];
  /** The next session to run (its number), or null: all decided, or the budget spent. */
  next: number | null;
  /** What the next session visits. */
  visits: ConfirmVisit[];
  /** Why next is null (null while a session is to be added). */
  stopped: AdaptiveStop | null;
  /** Formal launches and sampling minutes of the sessions so far. */
  spent: { launches: number; minutes: number };
}

/** The pairs of arms one unit and condition compares: the design's list, or every pair. */
function pairsOf(arms: readonly string[], design: AdaptiveDesign): { a: string; b: string }[] {
  const out: { a: string; b: string }[] = [];
  for (let i = 0; i < arms.length; i++) {
    for (let j = i + 1; j < arms.length; j++) {
      const [x, y] = [arms[i]!, arms[j]!];
      if (!design.comparisons) out.push({ a: x, b: y });
      else {
        const named = design.comparisons.find((c) => (c.a === x && c.b === y) || (c.a === y && c.b === x));
        if (named) out.push(named);
      }
    }
  }
  return out;
}

/** Formal launches and the minutes from the first row's start to the last row's end, over the sessions up to `upTo` (every phase: preflight, warmup and canary are the sessions' cost too). */
export function spentSoFar(rows: readonly AdaptiveRow[], upTo: number): { launches: number; minutes: number } {
  let launches = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const r of rows) {
    if (r.session > upTo) continue;
    if (r.phase === undefined || r.phase === 'formal') launches++;
    const started = typeof r['started_at'] === 'string' ? Date.parse(r['started_at'] as string) : NaN;
    if (!Number.isFinite(started)) continue;
    const took = typeof r['completion_ms'] === 'number' ? (r['completion_ms'] as number) : 0;
    first = Math.min(first, started);
    last = Math.max(last, started + took);
  }
  return { launches, minutes: Number.isFinite(first) && last > first ? (last - first) / 60000 : 0 };
}

/**
 * The decisions after `completedSessions` sessions, and what the next session
 * visits. `nextLaunches` gives the formal launches a session over these
 * visits would make, for the launch and minute budgets (the minutes a session
 * takes are estimated at the pace so far, minutes per formal launch).
 */
export function adaptiveStep(
  rows: readonly AdaptiveRow[],
  dims: { units: readonly string[]; arms: readonly string[]; conditions: readonly string[] },
  design: AdaptiveDesign,
  completedSessions: number,
  nextLaunches: (visits: readonly ConfirmVisit[]) => number = () => 0,
): AdaptiveStep {
  const plan = planOf(design);
  const comparisons: AdaptiveComparison[] = [];
  for (const cohort of dims.units) {
    for (const state of dims.conditions) {
      for (const pair of pairsOf(dims.arms, design)) {
        const c = { cohort, state, ...pair };
        const values = sessionLogRatios(rows, c, design.metric, completedSessions);
        const reference = design.minMs > 0 ? referenceMedian(rows, c, design.metric, completedSessions) : null;
        const half = Math.max(design.marginRelative, reference !== null && reference > 0 ? design.minMs / reference : 0);
        const decision = firstStoppingDecision(values, plan, half);
        comparisons.push({ ...c, decision, sessions: decision.sessions });
      }
    }
  }
  const spent = spentSoFar(rows, completedSessions);
  const open = comparisons.filter((c) => !c.decision.stop);
  const byCohort = new Map<string, Set<string>>();
  for (const c of open) byCohort.set(c.cohort, (byCohort.get(c.cohort) ?? new Set<string>()).add(c.a).add(c.b));
  const visits = [...byCohort.entries()].map(([cohort, paths]) => ({ cohort, paths: dims.arms.filter((a) => paths.has(a)) }));
  const more = visits.length ? nextLaunches(visits) : 0;
  const undecided = comparisons.some((c) => !c.decision.stop || c.decision.verdict === 'undecided');
  const stopped: AdaptiveStop | null = !undecided
    ? 'decided'
    : !open.length || completedSessions >= design.maxSessions
      ? 'max_sessions'
      : design.maxLaunches !== null && spent.launches + more > design.maxLaunches
        ? 'max_launches'
        : design.maxMinutes !== null && spent.launches > 0 && spent.minutes + (spent.minutes / spent.launches) * more > design.maxMinutes
          ? 'max_minutes'
          : null;
  return { comparisons, next: stopped === null ? completedSessions + 1 : null, visits: stopped === null ? visits : [], stopped, spent };
}

/** adaptive.json, the sample stage's record of what was decided when. */
export function adaptiveRecord(step: AdaptiveStep, design: AdaptiveDesign, sessionsRun: number): Record<string, unknown> {
  return {
    format: 'benchgraph-adaptive/1',
    minSessions: design.minSessions,
    maxSessions: design.maxSessions,
    spendingRho: design.spendingRho,
    metric: design.metric,
    margin: design.marginRelative,
    minMs: design.minMs,
    maxLaunches: design.maxLaunches,
    maxMinutes: design.maxMinutes,
    sessionsRun,
    stopped: step.stopped,
    launches: step.spent.launches,
    minutes: Math.round(step.spent.minutes * 100) / 100,
    comparisons: step.comparisons.map((c) => ({
      cohort: c.cohort,
      state: c.state,
      a: c.a,
      b: c.b,
      verdict: c.decision.stop ? c.decision.verdict : 'undecided',
      decided: c.decision.stop && c.decision.verdict !== 'undecided',
      sessions: c.sessions,
      ratio: c.decision.interval ? Math.exp(c.decision.interval.mean) : null,
      ratioLow: c.decision.interval ? Math.exp(c.decision.interval.low) : null,
      ratioHigh: c.decision.interval ? Math.exp(c.decision.interval.high) : null,
    })),
  };
}
