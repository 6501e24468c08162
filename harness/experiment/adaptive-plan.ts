// Pure: design.adaptive on the experiment model. Sessions are added one at a
// time, from min_sessions to max_sessions, until every comparison (every pair
// of arms, per unit and condition) is decided under the sequential rule
// (analysis/sequential-decision.ts: lower, higher or equivalent within
// +-margin) or the budget is spent. A later session visits only the units of
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
import { sequentialDecision, type SequentialDecision } from '../analysis/sequential-decision.js';
import type { ConfirmVisit } from '../analysis/undecided-differences.js';
import { defaultSequentialPlan, type SequentialPlan } from '../stats/sequential-session-interval.js';

export interface AdaptiveDesign {
  minSessions: number;
  maxSessions: number;
  /** The sample column compared (e.g. completion_ms). */
  metric: string;
  /** Relative half width of "equivalent" (0.05 = +-5%). */
  marginRelative: number;
}

/** design.adaptive with its defaults; null when the key is absent or false (off). */
export function adaptiveDesign(section: unknown): AdaptiveDesign | null {
  if (section === undefined || section === null || section === false) return null;
  const s = (typeof section === 'object' ? section : {}) as Record<string, unknown>;
  const int = (k: string, d: number): number => (typeof s[k] === 'number' ? (s[k] as number) : d);
  const minSessions = int('min_sessions', defaultSequentialPlan.minSessions);
  const maxSessions = int('max_sessions', defaultSequentialPlan.maxSessions);
  if (maxSessions < minSessions) {
    throw new UserError(`is below min_sessions (${minSessions})`, { key: 'design.adaptive.max_sessions' }, `give at least ${minSessions}`);
  }
  return {
    minSessions,
    maxSessions,
    metric: typeof s['metric'] === 'string' ? (s['metric'] as string) : 'completion_ms',
    marginRelative: typeof s['margin'] === 'number' ? (s['margin'] as number) : 0.05,
  };
}

export function planOf(d: AdaptiveDesign): SequentialPlan {
  return { ...defaultSequentialPlan, minSessions: d.minSessions, maxSessions: d.maxSessions };
}

/** The part of a sample row this plan reads. */
export interface AdaptiveRow {
  session: number;
  cohort: string;
  path: string;
  state: string;
  round: number;
  phase?: unknown;
  ok?: unknown;
  [column: string]: unknown;
}

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

export interface AdaptiveStep {
  comparisons: AdaptiveComparison[];
  /** The next session to run (its number), or null: all decided, or the budget spent. */
  next: number | null;
  /** What the next session visits. */
  visits: ConfirmVisit[];
}

/** Per session (ascending) the mean log ratio a / b of the metric; sessions without a pair of both are left out. */
export function sessionLogRatios(
  rows: readonly AdaptiveRow[],
  c: { cohort: string; state: string; a: string; b: string },
  metric: string,
  upTo: number,
): number[] {
  const bySession = new Map<number, Map<number, { a?: number; b?: number }>>();
  for (const r of rows) {
    if (r.session > upTo || r.cohort !== c.cohort || r.state !== c.state || (r.path !== c.a && r.path !== c.b)) continue;
    if ((r.phase !== undefined && r.phase !== 'formal') || r.ok === false) continue;
    const v = r[metric];
    if (typeof v !== 'number' || !(v > 0)) continue;
    const rounds = bySession.get(r.session) ?? new Map<number, { a?: number; b?: number }>();
    const p = rounds.get(r.round) ?? {};
    p[r.path === c.a ? 'a' : 'b'] = Math.log(v);
    rounds.set(r.round, p);
    bySession.set(r.session, rounds);
  }
  const out: number[] = [];
  for (const session of [...bySession.keys()].sort((x, y) => x - y)) {
    const d = [...bySession.get(session)!.values()].filter((p) => p.a !== undefined && p.b !== undefined).map((p) => p.a! - p.b!);
    if (d.length) out.push(d.reduce((s, v) => s + v, 0) / d.length);
  }
  return out;
}

/** The decisions after `completedSessions` sessions, and what the next session visits. */
export function adaptiveStep(
  rows: readonly AdaptiveRow[],
  dims: { units: readonly string[]; arms: readonly string[]; conditions: readonly string[] },
  design: AdaptiveDesign,
  completedSessions: number,
): AdaptiveStep {
  const plan = planOf(design);
  const comparisons: AdaptiveComparison[] = [];
  for (const cohort of dims.units) {
    for (const state of dims.conditions) {
      for (let i = 0; i < dims.arms.length; i++) {
        for (let j = i + 1; j < dims.arms.length; j++) {
          const c = { cohort, state, a: dims.arms[i]!, b: dims.arms[j]! };
          const values = sessionLogRatios(rows, c, design.metric, completedSessions);
          // The first look that stops decides; later sessions do not reopen it.
          let decision = sequentialDecision(values.slice(0, Math.min(values.length, plan.minSessions)), plan, design.marginRelative);
          for (let k = plan.minSessions; k <= Math.min(values.length, plan.maxSessions); k++) {
            decision = sequentialDecision(values.slice(0, k), plan, design.marginRelative);
            if (decision.stop) break;
          }
          comparisons.push({ ...c, decision, sessions: decision.sessions });
        }
      }
    }
  }
  const open = comparisons.filter((c) => !c.decision.stop);
  const next = open.length && completedSessions < design.maxSessions ? completedSessions + 1 : null;
  const byCohort = new Map<string, Set<string>>();
  for (const c of next === null ? [] : open) byCohort.set(c.cohort, (byCohort.get(c.cohort) ?? new Set<string>()).add(c.a).add(c.b));
  const visits = [...byCohort.entries()].map(([cohort, paths]) => ({ cohort, paths: dims.arms.filter((a) => paths.has(a)) }));
  return { comparisons, next, visits };
}

/** adaptive.json, the sample stage's record of what was decided when. */
export function adaptiveRecord(step: AdaptiveStep, design: AdaptiveDesign, sessionsRun: number): Record<string, unknown> {
  return {
    format: 'benchgraph-adaptive/1',
    minSessions: design.minSessions,
    maxSessions: design.maxSessions,
    metric: design.metric,
    margin: design.marginRelative,
    sessionsRun,
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
